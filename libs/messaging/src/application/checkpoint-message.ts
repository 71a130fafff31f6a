import { checkpointsTopic } from '@ledger/contracts';
import type { SignedCheckpoint } from '@ledger/eventstore';
import type { OutgoingMessage } from './message-publisher.port';

/** One key for every checkpoint: a single partition keeps them in signing order. */
const CHECKPOINTS_KEY = 'head';

/** The Kafka message of a signed head checkpoint: the value is its line in data/checkpoints.jsonl, byte for byte. */
export function checkpointMessage(checkpoint: SignedCheckpoint, topicPrefix: string): OutgoingMessage {
  return { topic: checkpointsTopic(topicPrefix), key: CHECKPOINTS_KEY, value: JSON.stringify(checkpoint), headers: {} };
}
