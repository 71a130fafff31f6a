import type { AgentLogger } from './agent-logger';
import { AGENT_VERSION } from './agent-version';
import type { HostDiscovery } from './host-discovery';
import { isLedgerCallError } from './ledger-call.error';
import type { LedgerClient } from './ledger-client';
import { Pause, type Timers } from './timers';

export interface HeartbeatLoopOptions {
  readonly discovery: Pick<HostDiscovery, 'health'>;
  readonly client: Pick<LedgerClient, 'heartbeat'>;
  readonly timers: Timers;
  readonly logger: AgentLogger;
  readonly intervalSeconds: number;
  /** The ledger said jobs are waiting for this host. */
  readonly onJobsWaiting: () => void;
  /** A heartbeat got through after failing: whatever waits out a backoff can go now. */
  readonly onLedgerBack?: () => void;
  /** The ledger has no report of this host (its data was reset, or the first report has not arrived): report now. */
  readonly onHostUnknown?: () => void;
}

/**
 * Every interval: the drivers' health and telemetry to the ledger's live
 * view. A heartbeat that cannot be delivered is dropped, not queued — the
 * next one carries newer readings — and the loop keeps its rhythm, so the
 * ledger hears from the host within one interval of coming back, and the
 * other loops are told at once rather than at the end of their backoff.
 */
export class HeartbeatLoop {
  private failing = false;
  private delivered = false;

  constructor(private readonly options: HeartbeatLoopOptions) {}

  async run(stop: AbortSignal): Promise<void> {
    const pause = new Pause(this.options.timers, stop);
    while (!stop.aborted) {
      await this.beat();
      await pause.for(this.options.intervalSeconds * 1000);
    }
  }

  /** One heartbeat. Exposed for specs. */
  async beat(): Promise<void> {
    const { client, discovery, logger } = this.options;
    try {
      const devices = await discovery.health();
      const answer = await client.heartbeat({ agentVersion: AGENT_VERSION, intervalSeconds: this.options.intervalSeconds, devices });
      if (this.failing) {
        logger.log('heartbeat: delivered again');
        this.options.onLedgerBack?.();
      }
      // The ledger takes jobs for a host only once its agent has sent a heartbeat (JOB.AGENT_UNAVAILABLE before): this is when to ask.
      if (!this.delivered) logger.log(`ready: first heartbeat delivered (every ${this.options.intervalSeconds} s); jobs for this host are taken`);
      this.delivered = true;
      this.failing = false;
      if ((answer?.jobsWaiting ?? 0) > 0) this.options.onJobsWaiting();
    } catch (error) {
      if (isLedgerCallError(error) && error.code === 'INVENTORY.HOST_NOT_FOUND') this.options.onHostUnknown?.();
      if (!this.failing) logger.warn(`heartbeat: not delivered (${isLedgerCallError(error) ? error.message : (error as Error)?.message ?? error})`);
      this.failing = true;
    }
  }
}
