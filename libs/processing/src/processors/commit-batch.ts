import type { RecordedEvent } from '@ledger/eventstore';
import { LedgerError } from '@ledger/kernel';
import { advanceCheckpoint } from '../checkpoints/advance-checkpoint';
import type { Checkpoint } from '../checkpoints/checkpoint';
import { fenceLease, type LeaseTerms } from '../leases/lease';
import type { SqlDatabase } from '../sql/sql-database.port';
import type { Processor } from './processor';

/** A processor's `apply` threw; the batch was rolled back and the event will be retried. */
export class ApplyFailedError extends LedgerError {
  constructor(processor: string, event: RecordedEvent, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('PROCESSING.APPLY_FAILED', 500, `${processor} failed on ${event.type} at position ${event.position}: ${reason}`, {
      processor,
      position: event.position,
      eventId: event.id,
      type: event.type,
    });
    this.cause = cause;
  }
}

export interface Batch {
  readonly events: readonly RecordedEvent[];
  /** The checkpoint the batch starts from. */
  readonly from: Checkpoint;
  /** The position the store scanned up to: the new checkpoint, even when `events` is empty. */
  readonly to: number;
}

/**
 * Applies a batch and moves the checkpoint in one transaction, after
 * checking (`fence`) that the caller still holds the processor's lease. Any
 * failure rolls back both the read model and the checkpoint.
 */
export async function commitBatch(
  db: SqlDatabase,
  processor: Processor,
  batch: Batch,
  options: { readonly fence?: LeaseTerms; readonly now: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (options.fence) await fenceLease(tx, options.fence);
    for (const event of batch.events) {
      try {
        await processor.apply(event, tx);
      } catch (error) {
        throw new ApplyFailedError(processor.name, event, error);
      }
    }
    await advanceCheckpoint(tx, processor.name, batch.from, batch.to, options.now);
  });
}
