import type { AgentLogger } from './agent-logger';
import { backoffMs } from './backoff';
import type { HostDiscovery, HostPicture } from './host-discovery';
import { isLedgerCallError } from './ledger-call.error';
import type { LedgerClient } from './ledger-client';
import { Pause, type Timers } from './timers';

export interface ReportLoopOptions {
  readonly discovery: Pick<HostDiscovery, 'discover'>;
  readonly client: Pick<LedgerClient, 'report'>;
  readonly timers: Timers;
  readonly logger: AgentLogger;
  /** A full report at least this often, changed or not. */
  readonly reportIntervalMs: number;
  /** How often discovery re-runs to spot a change between reports (the heartbeat interval). */
  readonly checkIntervalMs: number;
  readonly random?: () => number;
}

/**
 * Keeps the ledger's picture of the host true: discovers on start, then
 * every check interval; sends the picture when it differs from the last one
 * the ledger acknowledged, when the report interval has passed, or when
 * asked (`reportNow`). While the ledger is unreachable it keeps
 * discovering and retries with backoff, always with the newest picture:
 * only the latest full picture matters, so nothing older is queued.
 */
export class ReportLoop {
  private acknowledgedFingerprint?: string;
  private nextDueAt = 0;
  private forced = false;
  private failures = 0;
  private pause?: Pause;
  private latest?: HostPicture;
  private firstRoundDone!: () => void;
  /** Settles after the first round, delivered or not: heartbeats wait for it, since the ledger ignores a host it has no report of. */
  readonly firstRound = new Promise<void>((resolve) => (this.firstRoundDone = resolve));

  constructor(private readonly options: ReportLoopOptions) {}

  /** The newest picture discovered (sent or not). */
  get picture(): HostPicture | undefined {
    return this.latest;
  }

  /** Send a fresh report at the next round, now if the loop is waiting. */
  reportNow(): void {
    this.forced = true;
    this.pause?.wake();
  }

  async run(stop: AbortSignal): Promise<void> {
    this.pause = new Pause(this.options.timers, stop);
    while (!stop.aborted) {
      await this.round().catch((error: unknown) => {
        this.failures++;
        this.options.logger.error(`report: discovery failed (${(error as Error)?.message ?? error})`);
      });
      this.firstRoundDone();
      if (stop.aborted) break;
      const wait = this.failures > 0 ? Math.min(backoffMs(this.failures, this.options.random), this.options.checkIntervalMs) : this.options.checkIntervalMs;
      await this.pause.for(wait);
    }
  }

  /** One discovery, and a report if one is due. Exposed for the agent's first round and for specs. */
  async round(): Promise<void> {
    const { timers, logger } = this.options;
    const picture = await this.options.discovery.discover();
    if (picture.fingerprint !== this.latest?.fingerprint) logger.log(`discovery: ${describe(picture)}`);
    this.latest = picture;
    const changed = picture.fingerprint !== this.acknowledgedFingerprint;
    const due = timers.now() >= this.nextDueAt;
    if (!changed && !due && !this.forced) return;
    const forced = this.forced;
    this.forced = false;
    try {
      const answer = await this.options.client.report(picture.devices);
      if (this.failures > 0) logger.log(`report: the ledger is back after ${this.failures} failed attempt(s)`);
      this.failures = 0;
      this.acknowledgedFingerprint = picture.fingerprint;
      this.nextDueAt = timers.now() + this.options.reportIntervalMs;
      if (answer.appended > 0) logger.log(`report: ${picture.devices.length} device(s); the ledger recorded ${answer.events.join(', ')}`);
    } catch (error) {
      if (!isLedgerCallError(error)) throw error;
      this.forced = forced;
      this.failures++;
      if (this.failures === 1 || !error.retryable) logger.warn(`report: not delivered (${error.message}); retrying with backoff`);
    }
  }
}

function describe(picture: HostPicture): string {
  if (picture.devices.length === 0) return 'no accelerators found';
  const lines = picture.devices.map((device) => `${device.pciAddress} ${device.type} ${device.model} (${device.driver ?? 'no driver'})`);
  return `${picture.devices.length} device(s): ${lines.join('; ')}`;
}
