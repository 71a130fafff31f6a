import type { ReportedDevice } from '@ledger/inventory';
import { isLedgerCallError } from '../runtime/ledger-call.error';
import type { LedgerClient } from '../runtime/ledger-client';
import type { Heartbeat, HeartbeatAnswer, ReportAnswer } from '../runtime/protocol';
import type { FleetStats } from './fleet-stats';
import type { RequestLimiter } from './request-limiter';

/** A report the ledger answered: when it left and when its answer came back. */
export interface ReportDelivery {
  readonly hostname: string;
  readonly sentAtMs: number;
  readonly answeredAtMs: number;
  readonly answer: ReportAnswer;
}

/** What every simulated host's client shares. */
export interface FleetClientShared {
  readonly limiter: RequestLimiter;
  readonly stats: FleetStats;
  /** Every answered report (the scale benchmark times churn with it). */
  readonly onReport?: (delivery: ReportDelivery) => void;
  readonly now?: () => number;
}

/**
 * One simulated host's LedgerClient behind the fleet's shared limit on
 * calls in flight, counting each call's outcome and latency (from sending,
 * so time queued for a slot — the simulator's limit, not the ledger's
 * speed — is left out).
 */
export class FleetLedgerClient implements Pick<LedgerClient, 'report' | 'heartbeat'> {
  constructor(
    readonly hostname: string,
    private readonly client: Pick<LedgerClient, 'report' | 'heartbeat'>,
    private readonly shared: FleetClientShared,
  ) {}

  async report(devices: readonly ReportedDevice[]): Promise<ReportAnswer> {
    const now = this.shared.now ?? Date.now;
    return this.shared.limiter.run(async () => {
      const sentAtMs = now();
      const answer = await this.counted(sentAtMs, () => this.client.report(devices));
      const answeredAtMs = now();
      this.shared.stats.succeeded('report', answeredAtMs - sentAtMs, answer.appended);
      this.shared.onReport?.({ hostname: this.hostname, sentAtMs, answeredAtMs, answer });
      return answer;
    });
  }

  async heartbeat(heartbeat: Heartbeat): Promise<HeartbeatAnswer> {
    const now = this.shared.now ?? Date.now;
    return this.shared.limiter.run(async () => {
      const sentAtMs = now();
      const answer = await this.counted(sentAtMs, () => this.client.heartbeat(heartbeat));
      this.shared.stats.succeeded('heartbeat', now() - sentAtMs);
      return answer;
    });
  }

  /** Runs the call; a failure is counted by its code and passed on, for the agent's loops to handle as they would. */
  private async counted<T>(sentAtMs: number, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      const code = isLedgerCallError(error) ? (error.failure === 'unreachable' ? 'UNREACHABLE' : (error.code ?? `HTTP.${error.status}`)) : 'AGENT_ERROR';
      this.shared.stats.failed(code, (this.shared.now ?? Date.now)() - sentAtMs);
      throw error;
    }
  }
}
