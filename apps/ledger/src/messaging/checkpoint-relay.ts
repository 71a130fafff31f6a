import { checkpointMessage, type MessagePublisher } from '@ledger/messaging';
import type { SignedCheckpoint } from '@ledger/eventstore';

/** Kafka down for a week at the default minute's cadence stays well below this; beyond it the oldest go (the file keeps them all). */
const MAX_UNSENT = 20_000;

/**
 * Publishes the signed head checkpoints to `<prefix>.checkpoints.v1`, so an
 * auditor holds a copy the operator cannot change (docs/kafka.md). Those
 * Kafka did not acknowledge are sent again with the next, in signing order;
 * a restart sends the file's last one again. An auditor deduplicates by
 * position, and a later checkpoint vouches for everything before it.
 */
export class CheckpointRelay {
  private unsent: SignedCheckpoint[];

  constructor(
    private readonly publisher: MessagePublisher,
    private readonly topicPrefix: string,
    lastSigned: SignedCheckpoint | undefined,
  ) {
    this.unsent = lastSigned ? [lastSigned] : [];
  }

  /** Sends `signed` (when there is one) after those still unsent; throws when Kafka did not acknowledge them. */
  async relay(signed: SignedCheckpoint | undefined): Promise<void> {
    if (signed) this.unsent = [...this.unsent, signed].slice(-MAX_UNSENT);
    if (this.unsent.length === 0) return;
    const sending = this.unsent;
    await this.publisher.publish(sending.map((checkpoint) => checkpointMessage(checkpoint, this.topicPrefix)));
    this.unsent = this.unsent.slice(sending.length);
  }
}
