export type FleetCall = 'report' | 'heartbeat';

/** What the fleet did in one period (or since it started). */
export interface FleetPeriod {
  readonly seconds: number;
  readonly reports: number;
  /** Reports the ledger appended something for (a change, or a host's first report). */
  readonly changedReports: number;
  readonly heartbeats: number;
  readonly errors: number;
  /** Error counts by code (`HTTP.503`, `INVENTORY.HOST_NOT_FOUND`, `UNREACHABLE`). */
  readonly errorCodes: Readonly<Record<string, number>>;
  /** Latency of the period's calls (ms, from sending to the answer; time queued for a slot is not counted); NaN without calls. */
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** Counts the fleet's calls, in periods (for progress lines) and in total (for the summary). */
export class FleetStats {
  private period = emptyCounts();
  private total = emptyCounts();
  private periodStartedAt: number;
  private readonly startedAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = this.periodStartedAt = now();
  }

  succeeded(call: FleetCall, latencyMs: number, appended = 0): void {
    for (const counts of [this.period, this.total]) {
      if (call === 'report') {
        counts.reports++;
        if (appended > 0) counts.changedReports++;
      } else {
        counts.heartbeats++;
      }
    }
    this.period.latencies.push(latencyMs);
  }

  failed(code: string, latencyMs: number): void {
    for (const counts of [this.period, this.total]) {
      counts.errors++;
      counts.errorCodes[code] = (counts.errorCodes[code] ?? 0) + 1;
    }
    this.period.latencies.push(latencyMs);
  }

  /** The period since the last call (or the start), and a new one begins. */
  takePeriod(): FleetPeriod {
    const now = this.now();
    const period = summarize(this.period, (now - this.periodStartedAt) / 1000);
    this.period = emptyCounts();
    this.periodStartedAt = now;
    return period;
  }

  /** Everything since the start (latency percentiles cover the current period only). */
  totals(): FleetPeriod {
    return summarize({ ...this.total, latencies: this.period.latencies }, (this.now() - this.startedAt) / 1000);
  }
}

interface Counts {
  reports: number;
  changedReports: number;
  heartbeats: number;
  errors: number;
  errorCodes: Record<string, number>;
  latencies: number[];
}

const emptyCounts = (): Counts => ({ reports: 0, changedReports: 0, heartbeats: 0, errors: 0, errorCodes: {}, latencies: [] });

function summarize(counts: Counts, seconds: number): FleetPeriod {
  const sorted = Float64Array.from(counts.latencies).sort();
  const at = (p: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]);
  return {
    seconds,
    reports: counts.reports,
    changedReports: counts.changedReports,
    heartbeats: counts.heartbeats,
    errors: counts.errors,
    errorCodes: { ...counts.errorCodes },
    p50Ms: at(50),
    p99Ms: at(99),
  };
}
