import { LedgerError } from '@ledger/kernel';
import type { SqlExecutor } from '../sql/sql-database.port';
import type { Checkpoint, CheckpointTarget } from './checkpoint';

/** The stored checkpoint is not where this worker left it: another instance processed meanwhile. */
export class CheckpointMovedError extends LedgerError {
  constructor(name: string, expected: Checkpoint) {
    super('PROCESSING.CHECKPOINT_MOVED', 409, `checkpoint of ${name} is no longer at position ${expected.position} (version ${expected.version})`, {
      name,
      ...expected,
    });
  }
}

/**
 * Moves a checkpoint from `from` to `to`, only if it is still at `from`:
 * compare-and-set, so a worker that lost and silently regained its lease
 * never moves a checkpoint backwards over another instance's work. The
 * chain hash of the event at the new position is stored with it (see
 * CheckpointTarget).
 */
export async function advanceCheckpoint(tx: SqlExecutor, name: string, from: Checkpoint, to: CheckpointTarget, now: Date): Promise<void> {
  const changed = await tx.run(
    'UPDATE processor_checkpoints SET position = $4, hash = $6, updated_at = $5 WHERE name = $1 AND version = $2 AND position = $3',
    [name, from.version, from.position, to.position, now.toISOString(), to.hash ?? null],
  );
  if (changed !== 1) throw new CheckpointMovedError(name, from);
}
