import type { EventStore } from '../event-store.port';
import type { CheckpointKeys } from './checkpoint-key-file';
import { appendCheckpointLine, readCheckpointLines } from './checkpoint-files';
import { type SignedCheckpoint, signCheckpoint } from './head-checkpoint';

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
 * since the last one. Called at a fixed cadence and on shutdown.
 */
export class HeadCheckpointer {
  private last: number;

  constructor(private readonly options: HeadCheckpointerOptions) {
    const existing = readCheckpointLines(options.file);
    this.last = existing.reduce((max, checkpoint) => Math.max(max, checkpoint.position), 0);
  }

  /** The new checkpoint, or undefined when the head has not moved (or the log is empty). */
  async checkpoint(): Promise<SignedCheckpoint | undefined> {
    const head = await this.options.store.headPosition();
    if (head === 0 || head === this.last) return undefined;
    const { events } = await this.options.store.readAll({ after: head - 1, max: 1 });
    const event = events.find((candidate) => candidate.position === head);
    if (!event) return undefined; // not visible yet (PostgreSQL gap guard): the next tick signs it
    const signed = signCheckpoint({ position: head, hash: event.hash, at: this.options.clock().toISOString() }, this.options.keys.privateKey);
    appendCheckpointLine(this.options.file, signed);
    if (this.options.publishFile) appendCheckpointLine(this.options.publishFile, signed);
    this.last = head;
    return signed;
  }
}
