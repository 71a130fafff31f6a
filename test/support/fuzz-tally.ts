/** Per operation: requests sent and served (2xx), over the whole run and over its last quarter. */
export class OperationTally {
  private readonly counts = new Map<string, { sent: number; served: number; lateSent: number; lateServed: number }>();

  constructor(operations: readonly string[]) {
    for (const operation of operations) this.counts.set(operation, { sent: 0, served: 0, lateSent: 0, lateServed: 0 });
  }

  count(operation: string, served: boolean, late: boolean): void {
    const counts = this.counts.get(operation) ?? { sent: 0, served: 0, lateSent: 0, lateServed: 0 };
    counts.sent++;
    if (served) counts.served++;
    if (late) counts.lateSent++;
    if (late && served) counts.lateServed++;
    this.counts.set(operation, counts);
  }

  servedTotal(): number {
    return [...this.counts.values()].reduce((total, counts) => total + counts.served, 0);
  }

  served(operation: string): number {
    return this.counts.get(operation)?.served ?? 0;
  }

  servedLate(operation: string): number {
    return this.counts.get(operation)?.lateServed ?? 0;
  }

  /** One line per operation, the least served first: `12% of 40 | 10% of 10  POST /v2/…`. */
  lines(): string[] {
    const share = (served: number, sent: number) => `${sent === 0 ? '  -' : `${Math.round((100 * served) / sent)}%`.padStart(4)} of ${String(sent).padEnd(5)}`;
    return [...this.counts]
      .sort(([, a], [, b]) => a.served / (a.sent || 1) - b.served / (b.sent || 1))
      .map(([operation, counts]) => `${share(counts.served, counts.sent)} | ${share(counts.lateServed, counts.lateSent)}  ${operation}`);
  }
}
