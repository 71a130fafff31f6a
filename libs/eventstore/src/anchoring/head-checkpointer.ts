import type { EventStore } from '../event-store.port';
import type { CheckpointKeys } from './checkpoint-key-file';
import { appendCheckpointLine } from './checkpoint-files';
import { type SignedCheckpoint, signCheckpoint } from './head-checkpoint';
import { type CheckpointRecords, type LogCut, LogCutBelowSignedHeadError, logCutOf, readCheckpointRecords, signedHeadOf } from './log-cut';

export interface HeadCheckpointerOptions {
  readonly store: Pick<EventStore, 'headPosition' | 'readAll'>;
  readonly keys: CheckpointKeys;
  /** The data dir's `checkpoints.jsonl`. */
  readonly file: string;
  /** An append-only copy the operator cannot change (LEDGER_CHECKPOINT_PUBLISH_FILE). */
  readonly publishFile?: string;
  readonly clock: () => Date;
}

/**
 * Signs the log's head (position and chain hash) and appends the checkpoint
 * to the checkpoint file and its published copy, only when the head moved
 * past the highest position either file signed. Called at a fixed cadence
 * and on shutdown. A head below that is a cut store: nothing is signed
 * below a signed checkpoint, ever; until an operator accepts the rollback
 * (`ledgerctl audit accept-rollback`) signing fails with
 * AUDIT.LOG_CUT_BELOW_SIGNED_HEAD, after it the head is left unsigned
 * until it passes the signed head again.
 */
export class HeadCheckpointer {
  private signedHead: number;
  /** The accepted cut the store was last found in (kept, without reading the files again, while the head stays at or above the acceptance's `to`). */
  private acceptedCut: LogCut | undefined;

  constructor(private readonly options: HeadCheckpointerOptions) {
    this.signedHead = signedHeadOf(this.records().checkpoints, options.keys.publicKey)?.position ?? 0;
  }

  /** The cut the store's head is below, or undefined; the files are read again while cut, for an acceptance recorded since. */
  async cut(): Promise<LogCut | undefined> {
    return this.cutAt(await this.options.store.headPosition());
  }

  /** The new checkpoint, or undefined when the head has not passed the signed head (or the log is empty). */
  async checkpoint(): Promise<SignedCheckpoint | undefined> {
    const head = await this.options.store.headPosition();
    const cut = this.cutAt(head);
    if (cut && !cut.accepted) throw new LogCutBelowSignedHeadError(cut);
    if (head === 0 || head <= this.signedHead) return undefined;
    const { events } = await this.options.store.readAll({ after: head - 1, max: 1 });
    const event = events.find((candidate) => candidate.position === head);
    if (!event) return undefined; // not visible yet (PostgreSQL gap guard): the next tick signs it
    const signed = signCheckpoint({ position: head, hash: event.hash, at: this.options.clock().toISOString() }, this.options.keys.privateKey);
    appendCheckpointLine(this.options.file, signed);
    if (this.options.publishFile) appendCheckpointLine(this.options.publishFile, signed);
    this.signedHead = head;
    return signed;
  }

  private cutAt(head: number): LogCut | undefined {
    if (head >= this.signedHead) return undefined;
    if (this.acceptedCut?.accepted && head >= this.acceptedCut.accepted.to) return { ...this.acceptedCut, storeHead: head };
    const cut = logCutOf(head, this.records(), this.options.keys.publicKey);
    this.acceptedCut = cut?.accepted ? cut : undefined;
    return cut;
  }

  private records(): CheckpointRecords {
    return readCheckpointRecords([this.options.file, this.options.publishFile]);
  }
}
