import type { SqlExecutor } from '../sql/sql-database.port';

/** Where a processor's read model stands: built by `version` from events up to `position`. */
export interface Checkpoint {
  readonly version: number;
  readonly position: number;
}

export async function readCheckpoint(db: SqlExecutor, name: string): Promise<Checkpoint | undefined> {
  return db.get<Checkpoint>('SELECT version, position FROM processor_checkpoints WHERE name = $1', [name]);
}

/**
 * Starts a processor's checkpoint over for `version` (first run, or a
 * rebuild), at position 0 unless told otherwise (a reactor that begins at the head).
 */
export async function restartCheckpoint(tx: SqlExecutor, name: string, version: number, now: Date, position = 0): Promise<void> {
  await tx.run(
    `INSERT INTO processor_checkpoints (name, version, position, updated_at) VALUES ($1, $2, $4, $3)
     ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position, updated_at = excluded.updated_at`,
    [name, version, now.toISOString(), position],
  );
}
