import { FleetStats } from './fleet-stats';
import { progressLine } from './progress-line';

describe('FleetStats', () => {
  it('counts calls per period and in total, with latency percentiles of the period', () => {
    let now = 0;
    const stats = new FleetStats(() => now);
    // Latencies 1 … 100 ms, one call each.
    for (let latency = 1; latency <= 97; latency++) stats.succeeded('heartbeat', latency);
    stats.succeeded('report', 98, 0);
    stats.succeeded('report', 99, 3);
    stats.failed('HTTP.503', 100);
    now = 2000;

    const first = stats.takePeriod();
    expect(first).toMatchObject({ seconds: 2, reports: 2, changedReports: 1, heartbeats: 97, errors: 1, errorCodes: { 'HTTP.503': 1 }, p50Ms: 50, p99Ms: 99 });

    stats.failed('UNREACHABLE', 30_000);
    now = 3000;
    expect(stats.takePeriod()).toMatchObject({ seconds: 1, reports: 0, heartbeats: 0, errors: 1, errorCodes: { UNREACHABLE: 1 }, p99Ms: 30_000 });
    expect(stats.totals()).toMatchObject({ seconds: 3, reports: 2, heartbeats: 97, errors: 2, errorCodes: { 'HTTP.503': 1, UNREACHABLE: 1 } });
    expect(Number.isNaN(stats.takePeriod().p99Ms)).toBe(true);
  });

  it('reads as one progress line: rates, errors by code, latency, queue', () => {
    let now = 0;
    const stats = new FleetStats(() => now);
    stats.succeeded('report', 4, 2);
    stats.succeeded('heartbeat', 2);
    stats.failed('HTTP.503', 8);
    stats.failed('HTTP.503', 8);
    stats.failed('UNREACHABLE', 8);
    now = 2000;

    expect(progressLine(stats.takePeriod(), { hosts: 10, registered: 9, queued: 3 })).toBe(
      '9/10 hosts registered; reports 0.5/s (0.5/s appended), heartbeats 0.5/s, errors 3 (HTTP.503 ×2, UNREACHABLE ×1), latency p50 8.0 ms p99 8.0 ms, queued 3',
    );
  });
});
