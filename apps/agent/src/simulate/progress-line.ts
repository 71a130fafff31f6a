import type { FleetPeriod } from './fleet-stats';

/** One progress line: rates over the period, errors by code, latency percentiles, what waits for a slot. */
export function progressLine(period: FleetPeriod, context: { hosts: number; registered: number; queued: number }): string {
  const rate = (count: number) => (period.seconds > 0 ? count / period.seconds : 0).toFixed(1);
  const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
  const codes = Object.entries(period.errorCodes)
    .sort(([, a], [, b]) => b - a)
    .map(([code, count]) => `${code} ×${count}`)
    .join(', ');
  return (
    `${context.registered}/${context.hosts} hosts registered; reports ${rate(period.reports)}/s (${rate(period.changedReports)}/s appended), ` +
    `heartbeats ${rate(period.heartbeats)}/s, errors ${period.errors}${codes ? ` (${codes})` : ''}, ` +
    `latency p50 ${ms(period.p50Ms)} ms p99 ${ms(period.p99Ms)} ms, queued ${context.queued}`
  );
}
