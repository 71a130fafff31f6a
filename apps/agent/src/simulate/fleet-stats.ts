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
    return summarizeCounts(this.takePeriodCounts());
  }

  /** The period's raw counts, latencies included (what a simulate worker sends to be merged), and a new period begins. */
  takePeriodCounts(): PeriodCounts {
    const now = this.now();
    const counts = { ...this.period, seconds: (now - this.periodStartedAt) / 1000 };
    this.period = emptyCounts();
    this.periodStartedAt = now;
    return counts;
  }

  /** Everything since the start (latency percentiles cover the current period only). */
  totals(): FleetPeriod {
    return summarizeCounts(this.totalCounts());
  }

  /** Everything since the start as raw counts, with the current period's latencies. */
  totalCounts(): PeriodCounts {
    return { ...this.total, errorCodes: { ...this.total.errorCodes }, latencies: this.period.latencies, seconds: (this.now() - this.startedAt) / 1000 };
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

/** A period's counts before percentiles are taken: what several fleets' periods merge from. */
export interface PeriodCounts extends Readonly<Omit<Counts, 'errorCodes' | 'latencies'>> {
  readonly seconds: number;
  readonly errorCodes: Readonly<Record<string, number>>;
  readonly latencies: readonly number[];
}

const emptyCounts = (): Counts => ({ reports: 0, changedReports: 0, heartbeats: 0, errors: 0, errorCodes: {}, latencies: [] });

/**
 * Several fleets' counts over about the same period as one: counts and
 * error codes added, latencies pooled (so the percentiles are the whole
 * fleet's), the longest of the periods as its length.
 */
export function mergeCounts(parts: readonly PeriodCounts[]): PeriodCounts {
  const merged = emptyCounts();
  let seconds = 0;
  for (const part of parts) {
    merged.reports += part.reports;
    merged.changedReports += part.changedReports;
    merged.heartbeats += part.heartbeats;
    merged.errors += part.errors;
    for (const [code, count] of Object.entries(part.errorCodes)) merged.errorCodes[code] = (merged.errorCodes[code] ?? 0) + count;
    for (const latency of part.latencies) merged.latencies.push(latency);
    seconds = Math.max(seconds, part.seconds);
  }
  return { ...merged, seconds };
}

/** The counts with their latency percentiles. */
export function summarizeCounts(counts: PeriodCounts): FleetPeriod {
  return summarize(counts, counts.seconds);
}

function summarize(counts: Omit<PeriodCounts, 'seconds'>, seconds: number): FleetPeriod {
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
