import type { QuotaResources } from './quota-resources';

const BUCKETS = 64;

/**
 * The consumers holding a reservation, as an immutable map. Aggregate states
 * are shared through the AggregateCache, so `evolve` must never mutate; a
 * plain Map would then be copied whole for every event, which makes folding
 * a busy project's history quadratic. Split into buckets by a hash of the
 * consumer id, a change copies one bucket and the bucket array instead.
 */
export class ReservationBook {
  static readonly empty = new ReservationBook(Array.from({ length: BUCKETS }, () => new Map()), 0);

  private constructor(
    private readonly buckets: readonly ReadonlyMap<string, QuotaResources>[],
    /** Consumers holding a reservation. */
    readonly size: number,
  ) {}

  get(consumerId: string): QuotaResources | undefined {
    return this.buckets[bucketOf(consumerId)].get(consumerId);
  }

  with(consumerId: string, resources: QuotaResources): ReservationBook {
    const index = bucketOf(consumerId);
    const bucket = new Map(this.buckets[index]);
    const added = bucket.has(consumerId) ? 0 : 1;
    bucket.set(consumerId, resources);
    return new ReservationBook(replaced(this.buckets, index, bucket), this.size + added);
  }

  without(consumerId: string): ReservationBook {
    const index = bucketOf(consumerId);
    if (!this.buckets[index].has(consumerId)) return this;
    const bucket = new Map(this.buckets[index]);
    bucket.delete(consumerId);
    return new ReservationBook(replaced(this.buckets, index, bucket), this.size - 1);
  }

  /** Every reservation, by consumer id. */
  entries(): [string, QuotaResources][] {
    return this.buckets.flatMap((bucket) => [...bucket]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

function replaced<T>(items: readonly T[], index: number, item: T): T[] {
  const copy = items.slice();
  copy[index] = item;
  return copy;
}

/** FNV-1a: cheap, and spreads uuids and other ids evenly. */
function bucketOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % BUCKETS;
}
