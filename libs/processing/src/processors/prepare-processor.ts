import { type Checkpoint, readCheckpoint, restartCheckpoint } from '../checkpoints/checkpoint';
import type { SqlExecutor } from '../sql/sql-database.port';
import type { Processor } from './processor';

export interface PreparedProcessor {
  readonly checkpoint: Checkpoint;
  /** The read model was emptied to be rebuilt from position 0 (first run or a new version). */
  readonly rebuilt: boolean;
}

/**
 * Creates the processor's tables and, when the stored checkpoint is absent
 * or of another version, empties them and starts over at position 0, all in
 * the caller's transaction.
 */
export async function prepareProcessor(tx: SqlExecutor, processor: Processor, now: Date): Promise<PreparedProcessor> {
  await processor.setup(tx);
  const stored = await readCheckpoint(tx, processor.name);
  if (stored?.version === processor.version) return { checkpoint: stored, rebuilt: false };
  await processor.reset(tx);
  await restartCheckpoint(tx, processor.name, processor.version, now);
  return { checkpoint: { version: processor.version, position: 0 }, rebuilt: true };
}
