import { fenceLease, type LeaseTerms } from '../leases/lease';
import type { SqlDatabase, SqlExecutor } from '../sql/sql-database.port';
import { advanceCheckpoint } from './advance-checkpoint';
import type { Checkpoint, CheckpointTarget } from './checkpoint';

/**
 * Runs `work` (a projection's batch, a reactor's parking) and moves the
 * checkpoint from `from` to `to` in one transaction, after checking
 * (`fence`) that the caller still holds the lease. Any failure rolls back both.
 */
export async function commitWithCheckpoint(
  db: SqlDatabase,
  name: string,
  move: { readonly from: Checkpoint; readonly to: CheckpointTarget },
  options: { readonly fence?: LeaseTerms; readonly now: Date },
  work?: (tx: SqlExecutor) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (options.fence) await fenceLease(tx, options.fence);
    if (work) await work(tx);
    await advanceCheckpoint(tx, name, move.from, move.to, options.now);
  });
}
