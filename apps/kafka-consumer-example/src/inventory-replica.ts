import type { LedgerEventEnvelope } from '@ledger/contracts';
import { matchesFilter, type RecordedEvent } from '@ledger/eventstore';
import type { SqlDatabase } from '@ledger/processing';
import { inventoryProjection, type InventorySnapshot, snapshotInventory } from '@ledger/projections/inventory';

/** What the replica has done so far: `duplicatesDropped` counts redeliveries it recognised by event id. */
export interface ReplicaProgress {
  readonly applied: number;
  readonly duplicatesDropped: number;
  readonly highestPosition: number;
}

const SEEN_EVENTS = `CREATE TABLE IF NOT EXISTS example_seen_events (event_id TEXT PRIMARY KEY, position BIGINT NOT NULL)`;

/**
 * The ledger's inventory read model rebuilt from its Kafka topic, with the
 * ledger's own projection code (projections/inventory), so "equals the
 * ledger's projection" means something. Delivery is at least once: each
 * event id is applied once, recorded in the same transaction as its rows.
 * Each stream's events arrive in order, but streams share partitions and
 * partitions are read side by side, so what arrived is applied in log
 * position order at each `flush` (the consumer flushes once the topic goes quiet).
 */
export class InventoryReplica {
  private readonly filter = { types: inventoryProjection.handles, categories: inventoryProjection.filter?.categories };
  private pending = new Map<string, LedgerEventEnvelope>();
  private progress: ReplicaProgress = { applied: 0, duplicatesDropped: 0, highestPosition: 0 };

  private constructor(private readonly db: SqlDatabase) {}

  static async open(db: SqlDatabase): Promise<InventoryReplica> {
    await db.transaction(async (tx) => {
      await inventoryProjection.setup(tx);
      await tx.run(SEEN_EVENTS);
    });
    const replica = new InventoryReplica(db);
    const seen = await db.get<{ applied: number; highest: number | null }>('SELECT COUNT(*) AS applied, MAX(position) AS highest FROM example_seen_events');
    replica.progress = { applied: Number(seen?.applied ?? 0), duplicatesDropped: 0, highestPosition: Number(seen?.highest ?? 0) };
    return replica;
  }

  /** Holds the envelopes until the next flush; a redelivery of one already held is dropped here. */
  receive(envelopes: readonly LedgerEventEnvelope[]): void {
    for (const envelope of envelopes) {
      if (this.pending.has(envelope.id)) this.countDuplicates(1);
      else this.pending.set(envelope.id, envelope);
    }
  }

  /** Applies what is held, in log order, skipping the events applied before. */
  async flush(): Promise<ReplicaProgress> {
    if (this.pending.size === 0) return this.progress;
    const held = [...this.pending.values()].sort((a, b) => a.position - b.position);
    this.pending = new Map();
    await this.db.transaction(async (tx) => {
      const fresh: LedgerEventEnvelope[] = [];
      for (const envelope of held) {
        const inserted = await tx.run('INSERT INTO example_seen_events (event_id, position) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING', [envelope.id, envelope.position]);
        if (inserted === 1) fresh.push(envelope);
      }
      const events = fresh.filter((envelope) => matchesFilter(envelope, this.filter)) as RecordedEvent[];
      if (events.length > 0) await inventoryProjection.apply(events, tx);
      this.countDuplicates(held.length - fresh.length);
      this.progress = {
        ...this.progress,
        applied: this.progress.applied + fresh.length,
        highestPosition: fresh.reduce((highest, envelope) => Math.max(highest, envelope.position), this.progress.highestPosition),
      };
    });
    return this.progress;
  }

  snapshot(): Promise<InventorySnapshot> {
    return snapshotInventory(this.db);
  }

  private countDuplicates(count: number): void {
    this.progress = { ...this.progress, duplicatesDropped: this.progress.duplicatesDropped + count };
  }
}
