import { checkpointsTopic } from '@ledger/contracts';
import type { SignedCheckpoint, SignedRollbackAcceptance } from '@ledger/eventstore';
import type { OutgoingMessage } from './message-publisher.port';

/** One key for every checkpoint: a single partition keeps them in signing order. */
const CHECKPOINTS_KEY = 'head';

/** The Kafka message of a signed head checkpoint: the value is its line in data/checkpoints.jsonl, byte for byte. */
export function checkpointMessage(checkpoint: SignedCheckpoint, topicPrefix: string): OutgoingMessage {
  return { topic: checkpointsTopic(topicPrefix), key: CHECKPOINTS_KEY, value: JSON.stringify(checkpoint), headers: {} };
}

/**
 * The Kafka message of an operator's accepted rollback: its line in
 * data/checkpoints.jsonl (`{"rollbackAccepted": …}`), byte for byte, so a
 * copy of the topic given to `audit verify --checkpoints` reads it as the
 * file is read.
 */
export function rollbackAcceptanceMessage(acceptance: SignedRollbackAcceptance, topicPrefix: string): OutgoingMessage {
  return { topic: checkpointsTopic(topicPrefix), key: CHECKPOINTS_KEY, value: JSON.stringify({ rollbackAccepted: acceptance }), headers: {} };
}
