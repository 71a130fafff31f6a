import { checkpointMessage, type MessagePublisher, type OutgoingMessage, rollbackAcceptanceMessage } from '@ledger/messaging';
import type { SignedCheckpoint, SignedRollbackAcceptance } from '@ledger/eventstore';

/** Kafka down for a week at the default minute's cadence stays well below this; beyond it the oldest go (the file keeps them all). */
const MAX_UNSENT = 20_000;

/**
 * Publishes the signed head checkpoints, and the rollbacks an operator
 * accepted, to `<prefix>.checkpoints.v1`, so an auditor holds a copy the
 * operator cannot change (docs/kafka.md). Those Kafka did not acknowledge
 * are sent again with the next, in order; a restart sends the file's last
 * checkpoint again. An auditor deduplicates by position (an acceptance by
 * its signature), and a later checkpoint vouches for everything before it.
 */
export class CheckpointRelay {
  private unsent: OutgoingMessage[];

  constructor(
    private readonly publisher: MessagePublisher,
    private readonly topicPrefix: string,
    lastSigned: SignedCheckpoint | undefined,
  ) {
    this.unsent = lastSigned ? [checkpointMessage(lastSigned, topicPrefix)] : [];
  }

  /**
   * Sends `accepted` and `signed` (when given, in that order: an acceptance
   * precedes the checkpoints signed after it) after those still unsent;
   * throws when Kafka did not acknowledge them.
   */
  async relay(signed: SignedCheckpoint | undefined, accepted?: SignedRollbackAcceptance): Promise<void> {
    const next = [...(accepted ? [rollbackAcceptanceMessage(accepted, this.topicPrefix)] : []), ...(signed ? [checkpointMessage(signed, this.topicPrefix)] : [])];
    this.unsent = [...this.unsent, ...next].slice(-MAX_UNSENT);
    if (this.unsent.length === 0) return;
    const sending = this.unsent;
    await this.publisher.publish(sending);
    this.unsent = this.unsent.slice(sending.length);
  }
}
