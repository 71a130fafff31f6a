import type { SqlExecutor } from '../sql/sql-database.port';

/** Where a processor's read model stands: built by `version` from events up to `position`. */
export interface Checkpoint {
  readonly version: number;
  readonly position: number;
}

/**
 * Where a checkpoint moves to, with the chain hash of the event at that
 * position. On start the hash is compared with the log's event there: a log
 * restored from a backup and grown past the old checkpoint reuses its
 * positions for other events, which the position alone cannot tell.
 * Absent (stored NULL) at position 0 and where the hash is not known.
 */
export interface CheckpointTarget {
  readonly position: number;
  readonly hash?: string;
}

export async function readCheckpoint(db: SqlExecutor, name: string): Promise<Checkpoint | undefined> {
  return db.get<Checkpoint>('SELECT version, position FROM processor_checkpoints WHERE name = $1', [name]);
}

/** The chain hash stored with a checkpoint; undefined when none was stored (older rows, position 0). */
export async function readCheckpointHash(db: SqlExecutor, name: string): Promise<string | undefined> {
  const row = await db.get<{ hash: string | null }>('SELECT hash FROM processor_checkpoints WHERE name = $1', [name]);
  return row?.hash ?? undefined;
}

/**
 * Starts a processor's checkpoint over for `version` (first run, or a
 * rebuild), at position 0 unless told otherwise (a reactor that begins at the head).
 */
export async function restartCheckpoint(
  tx: SqlExecutor,
  name: string,
  version: number,
  now: Date,
  position = 0,
  hash?: string,
): Promise<void> {
  await tx.run(
    `INSERT INTO processor_checkpoints (name, version, position, updated_at, hash) VALUES ($1, $2, $4, $3, $5)
     ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position, updated_at = excluded.updated_at, hash = excluded.hash`,
    [name, version, now.toISOString(), position, hash ?? null],
  );
}
