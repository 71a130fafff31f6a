import { randomUUID } from 'node:crypto';
import { KafkaMessageSource, type ReceivedMessage } from '@ledger/messaging';
import { eventually } from '@ledger/processing/testing';

/**
 * Reads `topics` from their beginning as a fresh consumer group until
 * `enough` says what arrived suffices (a first group join takes ≈3 s on the
 * mock cluster), and returns every message received, in arrival order.
 */
export async function readTopics(brokers: readonly string[], topics: readonly string[], enough: (received: readonly ReceivedMessage[]) => boolean, timeoutMs = 60_000): Promise<ReceivedMessage[]> {
  const source = new KafkaMessageSource({ brokers, clientId: 'test-reader', groupId: `test-reader-${randomUUID()}`, topics });
  const received: ReceivedMessage[] = [];
  await source.start(async (messages) => {
    received.push(...messages);
  });
  try {
    await eventually(() => enough(received), timeoutMs);
  } finally {
    await source.stop();
  }
  return received;
}
