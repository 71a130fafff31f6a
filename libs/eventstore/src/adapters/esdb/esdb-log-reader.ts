import { type EventStoreDBClient, BACKWARDS, END, type Position, type ReadPosition, START } from '@eventstore/db-client';
import type { RecordedEvent } from '../../envelope';
import type { ReadAllOptions, ReadAllResult } from '../../event-store.port';
import { matchesFilter } from '../../filters/matches-filter';
import { fromEsdbEvent } from './esdb-ledger-metadata';

/** One per concurrent reader is plenty; older entries fall back to the backward walk. */
const MAX_CURSORS = 64;

/**
 * `readAll` over `$all`. The ledger's position lives in each event's
 * metadata, so `after` must be turned into a `$all` position: the reader
 * remembers where its recent reads stopped (the common case: subscriptions
 * reading on), and otherwise walks `$all` backwards to the event at `after`.
 * `$all` reads are inclusive of their start, so the event at the start is
 * read again and skipped. Events the ledger did not write are skipped and do
 * not count towards `max`.
 */
export class EsdbLogReader {
  /** Ledger position → a `$all` position at or before which every ledger event up to it lies. */
  private readonly cursors = new Map<number, Position>();

  constructor(private readonly client: EventStoreDBClient) {}

  async readAll(options: ReadAllOptions = {}): Promise<ReadAllResult> {
    const after = options.after ?? 0;
    const max = options.max ?? 1000;
    const events: RecordedEvent[] = [];
    let scannedTo = after;
    let scanned = 0;
    let lastRead: Position | undefined;
    if (max > 0) {
      for await (const resolved of this.client.readAll({ fromPosition: await this.startOf(after) })) {
        if (!resolved.event) continue;
        lastRead = resolved.event.position;
        const recorded = fromEsdbEvent(resolved.event);
        if (!recorded || recorded.position <= after) continue;
        scanned++;
        scannedTo = recorded.position;
        if (matchesFilter(recorded, options.filter)) events.push(recorded);
        if (scanned === max) break;
      }
    }
    if (lastRead) this.remember(scannedTo, lastRead);
    return { events, position: scannedTo };
  }

  private async startOf(after: number): Promise<ReadPosition> {
    if (after === 0) return START;
    const remembered = this.cursors.get(after);
    if (remembered) return remembered;
    for await (const { event } of this.client.readAll({ direction: BACKWARDS, fromPosition: END })) {
      const recorded = event && fromEsdbEvent(event);
      if (event && recorded && recorded.position <= after) return event.position;
    }
    return START;
  }

  private remember(sequence: number, position: Position): void {
    this.cursors.delete(sequence);
    this.cursors.set(sequence, position);
    if (this.cursors.size > MAX_CURSORS) this.cursors.delete(this.cursors.keys().next().value as number);
  }
}
