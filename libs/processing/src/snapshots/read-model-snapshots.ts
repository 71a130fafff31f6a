import type { EventStore } from '@ledger/eventstore';
import { chainHashAt } from '../checkpoints/chain-hash-at';
import { readCheckpoint, readCheckpointHash } from '../checkpoints/checkpoint';
import type { Processor } from '../processors/processor';
import type { SqlDatabase } from '../sql/sql-database.port';
import { openSqliteScratchCopy, writeSqliteSqlDatabase } from '../sql/sqlite-sql-database';
import type { SnapshotFile, SnapshotFiles } from './snapshot-files';

/** A snapshot opened for use: a private scratch copy of the read model as of `position` (deleted when closed), verified against the log. */
export interface RestoredSnapshot {
  readonly db: SqlDatabase;
  readonly position: number;
}

/** Why a snapshot was not used: it does not say what the log says at its position, or cannot be read. */
export interface RefusedSnapshot {
  readonly file: string;
  readonly position: number;
  readonly reason: 'chain-mismatch' | 'checkpoint-mismatch' | 'unreadable';
  readonly detail: string;
}

/** Where as-of reads find snapshots: the newest verified one in (after, atMost], or none. */
export interface SnapshotSource {
  restore(processor: Processor, atMost: number, after?: number): Promise<RestoredSnapshot | undefined>;
}

/**
 * Read-model snapshots on disk, each a SQLite image of a read model rebuilt
 * by `rebuildProcessor` up to a position, its checkpoint row inside it
 * holding that position's chain hash. Before a snapshot is used, that hash
 * is compared with the log's event at the position: a snapshot taken from
 * another log (a store restored from a backup and grown again, a file
 * copied from another ledger) or edited to claim another position is
 * refused, told to `onRefused`, and the next older one tried.
 * What the hash vouches for is the position, not the rows: the snapshot
 * directory is trusted as the read models are.
 */
export class ReadModelSnapshots implements SnapshotSource {
  constructor(
    private readonly store: Pick<EventStore, 'readAll'>,
    private readonly files: SnapshotFiles,
    private readonly onRefused: (refused: RefusedSnapshot) => void = () => undefined,
  ) {}

  async restore(processor: Processor, atMost: number, after = 0): Promise<RestoredSnapshot | undefined> {
    for (const file of this.files.list(processor.name, processor.version)) {
      if (file.position > atMost) continue;
      if (file.position <= after) return undefined;
      const restored = await this.verified(processor, file);
      if (restored) return restored;
    }
    return undefined;
  }

  /** Writes `db` (a rebuild of `processor`, between its transactions) as a snapshot at its checkpoint's position. */
  async take(processor: Processor, db: SqlDatabase): Promise<SnapshotFile> {
    const checkpoint = await readCheckpoint(db, processor.name);
    if (checkpoint?.version !== processor.version) throw new Error(`${processor.name} holds no checkpoint of version ${processor.version} to snapshot`);
    return this.files.write(processor.name, processor.version, checkpoint.position, (path) => writeSqliteSqlDatabase(db, path));
  }

  /** Deletes `processor`'s snapshots past its newest `keep`, and those of its other versions (SnapshotFiles.prune). */
  prune(processor: Processor, keep: number): SnapshotFile[] {
    return this.files.prune(processor.name, processor.version, keep);
  }

  private async verified(processor: Processor, file: SnapshotFile): Promise<RestoredSnapshot | undefined> {
    let db: SqlDatabase;
    try {
      db = await openSqliteScratchCopy(file.path);
    } catch (error) {
      this.onRefused({ file: file.path, position: file.position, reason: 'unreadable', detail: (error as Error).message });
      return undefined;
    }
    const refusal = await this.refusal(processor, file, db).catch((error: Error) => ({ reason: 'unreadable' as const, detail: error.message }));
    if (refusal === undefined) return { db, position: file.position };
    await db.close();
    this.onRefused({ file: file.path, position: file.position, ...refusal });
    return undefined;
  }

  private async refusal(processor: Processor, file: SnapshotFile, db: SqlDatabase): Promise<Omit<RefusedSnapshot, 'file' | 'position'> | undefined> {
    const checkpoint = await readCheckpoint(db, processor.name);
    if (checkpoint?.version !== file.version || checkpoint.position !== file.position) {
      const held = checkpoint ? `version ${checkpoint.version} at position ${checkpoint.position}` : 'no checkpoint';
      return { reason: 'checkpoint-mismatch', detail: `the file is named for version ${file.version} at position ${file.position} but holds ${held}` };
    }
    const claimed = await readCheckpointHash(db, processor.name);
    const actual = await chainHashAt(this.store, file.position);
    if (claimed === undefined || claimed !== actual) {
      return { reason: 'chain-mismatch', detail: `it claims chain hash ${claimed ?? 'none'} at position ${file.position}; the log has ${actual ?? 'no event'} there` };
    }
    return undefined;
  }
}
