import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { DispatchJobCommand, type JobOffer } from '@ledger/jobs';
import { JobQueries } from '@ledger/projections/jobs';
import { ConsistencyService } from '../http/consistency.service';
import { JobArrivals } from './job-arrivals';

export interface NextJobsRequest {
  readonly hostname: string;
  readonly agentBoot: string | null;
  readonly waitSeconds: number;
  readonly context: CommandContext;
  /** Aborted when the agent hangs up: nothing more is dispatched to a connection nobody reads. */
  readonly signal: AbortSignal;
}

/**
 * The agent's long poll: takes what waits for the host now (up to 16 jobs,
 * each recorded as JobDispatched before the answer), else waits until a job
 * arrives for the host or `waitSeconds` pass.
 */
@Injectable()
export class NextJobsLongPoll {
  constructor(
    @Inject(JobQueries) private readonly queries: JobQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(JobArrivals) private readonly arrivals: JobArrivals,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  async next(request: NextJobsRequest): Promise<JobOffer[]> {
    const until = Date.now() + request.waitSeconds * 1000;
    const ticket = this.arrivals.ticket(request.hostname);
    try {
      // A poll sees every job requested before it came; a projection that lags is waited for (a little), not read stale.
      await this.consistency.awaitFresh().catch(() => undefined);
      for (;;) {
        const offers = await this.take(request);
        const left = until - Date.now();
        if (offers.length > 0 || left <= 0 || request.signal.aborted || ticket.ended) return offers;
        const position = await ticket.wait(left, request.signal);
        // The job is in the log; its projection row (what `take` reads) follows within moments.
        if (position !== undefined) await this.consistency.awaitPosition(position).catch(() => undefined);
      }
    } finally {
      ticket.close();
    }
  }

  private async take({ hostname, agentBoot, context, signal }: NextJobsRequest): Promise<JobOffer[]> {
    const offers: JobOffer[] = [];
    for (const jobId of await this.queries.offerable(hostname, agentBoot, new Date().toISOString())) {
      if (signal.aborted) break;
      const offer = await this.commands.execute(new DispatchJobCommand({ jobId, hostname, agentBoot }, context));
      if (offer) offers.push(offer);
    }
    return offers;
  }
}
