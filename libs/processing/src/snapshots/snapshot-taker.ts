import type { EventStore } from '@ledger/eventstore';
import type { Processor } from '../processors/processor';
import { rebuildProcessor } from '../processors/rebuild-processor';
import type { SqlDatabase } from '../sql/sql-database.port';
import { openSqliteSqlDatabase } from '../sql/sqlite-sql-database';
import type { SnapshotFile } from './snapshot-files';
import type { ReadModelSnapshots } from './read-model-snapshots';

export interface SnapshotSchedule {
  /** A snapshot each time the log has grown this many events since the last (0: never by count). */
  readonly everyEvents: number;
  /** A snapshot at the head when this long has passed since the last and the head moved (0: never by time). */
  readonly everyMs: number;
}

export interface SnapshotTakerOptions extends SnapshotSchedule {
  readonly store: Pick<EventStore, 'readAll' | 'headPosition'>;
  readonly snapshots: ReadModelSnapshots;
  readonly processors: readonly Processor[];
  /** Events per rebuild transaction; small keeps a live process's event loop responsive. Default 5,000. */
  readonly batchSize?: number;
  /** Snapshots of each read model kept, newest first; after each new one the rest (and other versions') are deleted. 0 or absent: all. */
  readonly keep?: number;
  /** Told of each snapshot deleted under `keep`. */
  readonly onPruned?: (file: SnapshotFile) => void;
  readonly clock?: () => number;
}

interface Follower {
  readonly processor: Processor;
  db: SqlDatabase;
  /** Whether `db` holds the processor's read model yet (a restored snapshot or an earlier advance). */
  started: boolean;
  /** The position of the newest snapshot written or restored. */
  snapshotAt: number;
  snapshotTakenAt: number;
}

/**
 * Takes read-model snapshots as the log grows: each processor's read model
 * is kept in a private in-memory database, moved forward with
 * `rebuildProcessor` (the same replay as-of reads do), and written out
 * every `everyEvents` of the log (at exact multiples past the last, so a
 * log caught up at once still gets evenly spaced snapshots) and, when
 * `everyMs` has passed, at the head. It starts from the newest snapshot it
 * can verify, so a restart does not replay the whole log again.
 */
export class SnapshotTaker {
  private followers: Follower[] | undefined;
  private readonly clock: () => number;

  constructor(private readonly options: SnapshotTakerOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Writes every snapshot now due; resolves to the files written. Call it from one caller at a time. */
  async takeDue(): Promise<SnapshotFile[]> {
    const { everyEvents, everyMs } = this.options;
    const followers = (this.followers ??= await this.start());
    const head = await this.options.store.headPosition();
    const taken: SnapshotFile[] = [];
    for (const follower of followers) {
      if (everyEvents > 0) {
        while (head - follower.snapshotAt >= everyEvents) taken.push(await this.snapshot(follower, follower.snapshotAt + everyEvents));
      }
      if (everyMs > 0 && head > follower.snapshotAt && this.clock() - follower.snapshotTakenAt >= everyMs) taken.push(await this.snapshot(follower, head));
    }
    return taken;
  }

  async close(): Promise<void> {
    for (const follower of this.followers ?? []) await follower.db.close();
    this.followers = [];
  }

  private async start(): Promise<Follower[]> {
    const followers: Follower[] = [];
    for (const processor of this.options.processors) {
      const restored = await this.options.snapshots.restore(processor, Number.POSITIVE_INFINITY);
      followers.push({
        processor,
        db: restored?.db ?? (await openSqliteSqlDatabase({ file: ':memory:' })),
        started: restored !== undefined,
        snapshotAt: restored?.position ?? 0,
        snapshotTakenAt: this.clock(),
      });
    }
    return followers;
  }

  private async snapshot(follower: Follower, position: number): Promise<SnapshotFile> {
    const { processor } = follower;
    await rebuildProcessor(this.options.store, follower.db, processor, { untilPosition: position, resume: follower.started, batchSize: this.options.batchSize ?? 5_000 });
    follower.started = true;
    const file = await this.options.snapshots.take(processor, follower.db);
    follower.snapshotAt = file.position;
    follower.snapshotTakenAt = this.clock();
    const { keep, onPruned } = this.options;
    if (keep) for (const pruned of this.options.snapshots.prune(processor, keep)) onPruned?.(pruned);
    return file;
  }
}
