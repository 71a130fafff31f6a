import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AllocationSweeper } from '@ledger/allocation';
import type { LedgerConfig } from '@ledger/config';
import { LEDGER_CONFIG } from '../infrastructure/tokens';

/**
 * Runs the allocation sweeper every half bind timeout (LEDGER_BIND_TIMEOUT_MS),
 * first shortly after start-up, so that work a crash left half done is
 * finished within about one and a half timeouts. Every replica may run it:
 * its steps are idempotent.
 */
@Injectable()
export class AllocationSweepSchedule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AllocationSweeper');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(AllocationSweeper) private readonly sweeper: AllocationSweeper,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(Math.min(5_000, this.config.bindTimeoutMs / 2));
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep now (also what tests call). */
  async sweepOnce(): Promise<void> {
    const report = await this.sweeper.sweep(this.config.bindTimeoutMs);
    if (report.expiredBinds + report.releasedClaims + report.releasedReservations > 0) {
      this.logger.warn(
        `finished interrupted work: ${report.expiredBinds} bind(s) failed after timing out, ${report.releasedClaims} handle claim(s) and ${report.releasedReservations} quota reservation(s) released`,
      );
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.running = this.sweepOnce()
        .catch((error: unknown) => this.logger.error(`sweep failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          this.running = undefined;
          if (this.timer) this.schedule(this.config.bindTimeoutMs / 2);
        });
    }, delayMs);
    this.timer.unref();
  }
}
