import type { EventFilter, EventStore, ReadAllResult } from '@ledger/eventstore';

/**
 * A processor's reads of the log, one batch ahead while it catches up: when
 * a read comes back full, the next one starts at once, so it overlaps the
 * work on this one (a reactor waiting for Kafka's acknowledgement, a
 * projection's commit on PostgreSQL). A read ahead that the loop no longer
 * wants (it retried, its checkpoint moved elsewhere) is dropped.
 */
export class ReadAhead {
  private pending: { readonly after: number; readonly read: Promise<ReadAllResult> } | undefined;

  constructor(
    private readonly store: Pick<EventStore, 'readAll'>,
    private readonly batchSize: number,
    private readonly filter: EventFilter | undefined,
  ) {}

  /** The log after `after`, from the read ahead when it started there. */
  async read(after: number): Promise<ReadAllResult> {
    const pending = this.pending;
    this.pending = undefined;
    const result = await (pending?.after === after ? pending.read : this.readAll(after));
    if (result.events.length >= this.batchSize) this.start(result.position);
    return result;
  }

  /** Drops a read ahead: the loop prepares again, and a restored log may hold other events there now. */
  forget(): void {
    this.pending = undefined;
  }

  private start(after: number): void {
    const read = this.readAll(after);
    // Not a stray rejection: a failed read ahead fails the loop's read that takes it.
    read.catch(() => undefined);
    this.pending = { after, read };
  }

  private readAll(after: number): Promise<ReadAllResult> {
    return this.store.readAll({ after, max: this.batchSize, filter: this.filter });
  }
}
