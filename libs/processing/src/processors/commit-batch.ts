import type { RecordedEvent } from '@ledger/eventstore';
import { LedgerError } from '@ledger/kernel';
import type { Checkpoint } from '../checkpoints/checkpoint';
import { commitWithCheckpoint } from '../checkpoints/commit-with-checkpoint';
import type { LeaseTerms } from '../leases/lease';
import type { SqlDatabase } from '../sql/sql-database.port';
import type { Processor } from './processor';

/**
 * A processor's `apply` threw; the batch was rolled back and will be retried.
 * A batch is applied as a whole, so the error can name the failing event only
 * when it was alone in its batch; otherwise it names the batch's range.
 */
export class ApplyFailedError extends LedgerError {
  constructor(processor: string, events: readonly RecordedEvent[], cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const first = events[0];
    const last = events[events.length - 1];
    const failed =
      events.length === 1
        ? `${first.type} at position ${first.position}`
        : `the batch of ${events.length} events at positions ${first.position}-${last.position}`;
    super('PROCESSING.APPLY_FAILED', 500, `${processor} failed on ${failed}: ${reason}`, {
      processor,
      firstPosition: first.position,
      lastPosition: last.position,
      events: events.length,
      ...(events.length === 1 ? { eventId: first.id, type: first.type } : {}),
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
  /** The chain hash of the log's event at `to`, stored with the checkpoint (see CheckpointTarget). */
  readonly hash?: string;
}

/**
 * Applies a batch and moves the checkpoint in one transaction, after
 * checking (`fence`) that the caller still holds the processor's lease. Any
 * failure rolls back both the read model and the checkpoint. A batch whose
 * events the filter all dropped only moves the checkpoint.
 */
export async function commitBatch(
  db: SqlDatabase,
  processor: Processor,
  batch: Batch,
  options: { readonly fence?: LeaseTerms; readonly now: Date },
): Promise<void> {
  const apply =
    batch.events.length === 0
      ? undefined
      : async (tx: Parameters<Processor['apply']>[1]) => {
          try {
            await processor.apply(batch.events, tx);
          } catch (error) {
            throw new ApplyFailedError(processor.name, batch.events, error);
          }
        };
  await commitWithCheckpoint(db, processor.name, { from: batch.from, to: { position: batch.to, hash: batch.hash } }, options, apply);
}
