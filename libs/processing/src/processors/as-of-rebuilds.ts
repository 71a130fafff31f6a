import type { EventStore } from '@ledger/eventstore';
import { ValidationError } from '@ledger/kernel';
import type { SqlDatabase } from '../sql/sql-database.port';
import { copySqliteSqlDatabase, openSqliteSqlDatabase } from '../sql/sqlite-sql-database';
import type { SnapshotSource } from '../snapshots/read-model-snapshots';
import { type LogPoint, positionAtTime } from './log-point';
import type { Processor } from './processor';
import { rebuildProcessor } from './rebuild-processor';

/** An `asOf` position the log has not reached: the past cannot be read ahead of the head. */
export class AsOfBeyondHeadError extends ValidationError {
  constructor(position: number, head: number) {
    super('AUDIT.AS_OF_BEYOND_HEAD', `asOf ${position} is beyond the head of the log (${head})`, { position, head });
  }
}

interface Rebuild {
  readonly projection: string;
  readonly position: number;
  readonly db: Promise<SqlDatabase>;
  readers: number;
  evicted: boolean;
}

/** How many rebuilt read models are kept by default: each is a whole projection in memory. */
const DEFAULT_CAPACITY = 4;

/**
 * Read models as they were at a point of the log, for `?asOf=`, the
 * GraphQL `asOf` argument and `audit replay`: the projection is rebuilt
 * into a scratch in-memory SQLite up to that point, and the caller's own
 * query class runs on it. The rebuild starts from the latest of: a
 * snapshot at or before the point (`snapshots`, verified against the log
 * before use), a copy of a kept rebuild before it, or position 0; it
 * replays only the events after that. The newest few rebuilds are kept by
 * (projection, position); one evicted while a reader still uses it closes
 * when that reader is done. A time resolves to the last position recorded
 * at or before it, so two times between the same events share one rebuild.
 */
export class AsOfRebuilds {
  private readonly cache = new Map<string, Rebuild>();

  constructor(
    private readonly store: Pick<EventStore, 'readAll' | 'headPosition'>,
    private readonly capacity = DEFAULT_CAPACITY,
    private readonly snapshots?: SnapshotSource,
  ) {}

  /** Runs `read` on the projection's read model as of `point`; resolves to its answer and the position it reflects. */
  async read<T>(projection: Processor, point: LogPoint, read: (db: SqlDatabase) => Promise<T>): Promise<{ position: number; answer: T }> {
    const position = await this.positionOf(point);
    const rebuild = this.rebuildAt(projection, position);
    rebuild.readers++;
    try {
      return { position, answer: await read(await rebuild.db) };
    } finally {
      rebuild.readers--;
      if (rebuild.evicted && rebuild.readers === 0) await closeQuietly(rebuild.db);
    }
  }

  private rebuildAt(projection: Processor, position: number): Rebuild {
    const key = `${projection.name}@${position}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const base = this.nearestBefore(projection.name, position);
    // Held from now, not from when the copy starts: adding this rebuild below may evict the base at once.
    if (base) base.readers++;
    const db = (async () => {
      let scratch: SqlDatabase | undefined;
      try {
        scratch = (await this.snapshots?.restore(projection, position, base?.position))?.db;
        // From a snapshot or a copy of a kept rebuild, the replay resumes; from nothing, it starts at position 0.
        const resume = scratch !== undefined || base !== undefined;
        scratch ??= base ? await copySqliteSqlDatabase(await base.db) : await openSqliteSqlDatabase({ file: ':memory:' });
        await rebuildProcessor(this.store, scratch, projection, { untilPosition: position, resume });
      } catch (error) {
        await scratch?.close();
        throw error;
      } finally {
        if (base) await this.release(base);
      }
      return scratch;
    })();
    const rebuild: Rebuild = { projection: projection.name, position, db, readers: 0, evicted: false };
    // A failed rebuild is not kept: the next request tries again.
    db.catch(() => this.cache.get(key) === rebuild && this.cache.delete(key));
    this.cache.set(key, rebuild);
    while (this.cache.size > this.capacity) this.evictOldest();
    return rebuild;
  }

  /** The kept rebuild of `projection` at the latest position before `position`. */
  private nearestBefore(projection: string, position: number): Rebuild | undefined {
    let nearest: Rebuild | undefined;
    for (const kept of this.cache.values()) {
      if (kept.projection === projection && kept.position < position && kept.position > (nearest?.position ?? -1)) nearest = kept;
    }
    return nearest;
  }

  /** Lets go of a kept rebuild taken as a base: one evicted meanwhile closes once its last reader is done. */
  private async release(base: Rebuild): Promise<void> {
    base.readers--;
    if (base.evicted && base.readers === 0) await closeQuietly(base.db);
  }

  private evictOldest(): void {
    const [key, oldest] = this.cache.entries().next().value as [string, Rebuild];
    this.cache.delete(key);
    oldest.evicted = true;
    if (oldest.readers === 0) void closeQuietly(oldest.db);
  }

  private async positionOf(point: LogPoint): Promise<number> {
    if ('time' in point) return positionAtTime(this.store, point.time);
    const head = await this.store.headPosition();
    if (point.position > head) throw new AsOfBeyondHeadError(point.position, head);
    return point.position;
  }

  /** Closes every kept rebuild (at shutdown). */
  async close(): Promise<void> {
    for (const key of [...this.cache.keys()]) {
      const rebuild = this.cache.get(key)!;
      this.cache.delete(key);
      rebuild.evicted = true;
      if (rebuild.readers === 0) await closeQuietly(rebuild.db);
    }
  }
}

async function closeQuietly(db: Promise<SqlDatabase>): Promise<void> {
  await db.then((open) => open.close()).catch(() => undefined);
}
