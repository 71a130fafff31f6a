import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { JOBS_WAITING, type JobsWaiting, noJobsWaiting } from './jobs-waiting.port';

/**
 * Finds the JOBS_WAITING port wherever the jobs context provides it (no
 * module has to import this one), and answers 0 while none does. A failing
 * count is a missed hint, not a failed heartbeat: the agent polls anyway.
 */
@Injectable()
export class JobsWaitingLookup implements OnApplicationBootstrap {
  private readonly logger = new Logger('Heartbeats');
  private count: JobsWaiting = noJobsWaiting;

  constructor(@Inject(ModuleRef) private readonly modules: ModuleRef) {}

  onApplicationBootstrap(): void {
    try {
      this.count = this.modules.get<JobsWaiting>(JOBS_WAITING, { strict: false });
    } catch {
      this.count = noJobsWaiting;
    }
  }

  async waiting(hostname: string): Promise<number> {
    try {
      return await this.count(hostname);
    } catch (error) {
      this.logger.warn(`jobs waiting for ${hostname} unknown: ${(error as Error)?.message ?? String(error)}`);
      return 0;
    }
  }
}
