import { randomUUID } from 'node:crypto';
import { MessageBrokerUnavailableError } from '../application/message-publisher.errors';
import type { MessagePublisher, OutgoingMessage } from '../application/message-publisher.port';

/** What one run of the contract needs from an adapter. */
export interface MessagePublisherSubject {
  readonly publisher: MessagePublisher;
  /** A publisher of the same kind whose broker cannot be reached. */
  readonly unreachable: MessagePublisher;
  /** Resolves with the first `count` messages the topic holds, in each key's order. */
  read(topic: string, count: number): Promise<readonly Pick<OutgoingMessage, 'key' | 'value' | 'headers'>[]>;
}

/** The behaviour every MessagePublisher adapter must show, run against each (STYLE.md: one contract suite per port). */
export function messagePublisherContract(name: string, subject: () => MessagePublisherSubject): void {
  describe(`MessagePublisher contract: ${name}`, () => {
    const topicName = (): string => `contract-${randomUUID()}`;
    const message = (topic: string, key: string, index: number): OutgoingMessage => ({
      topic,
      key,
      value: JSON.stringify({ key, index }),
      headers: { 'ledger-event-id': `${key}-${index}` },
    });

    it('delivers key, value and headers to the topic', async () => {
      const topic = topicName();
      await subject().publisher.publish([message(topic, 'stream-a', 1)]);
      const [received] = await subject().read(topic, 1);
      expect(received).toEqual({ key: 'stream-a', value: '{"key":"stream-a","index":1}', headers: { 'ledger-event-id': 'stream-a-1' } });
    });

    it("keeps each key's order across batches and topics", async () => {
      const topic = topicName();
      const other = topicName();
      const keys = ['stream-a', 'stream-b', 'stream-c', 'stream-d', 'stream-e'];
      for (let batch = 0; batch < 3; batch++) {
        const messages = keys.flatMap((key) => [1, 2, 3].map((index) => message(index === 2 ? other : topic, key, batch * 10 + index)));
        await subject().publisher.publish(messages);
      }
      const received = await subject().read(topic, 30);
      for (const key of keys) {
        const order = received.filter((candidate) => candidate.key === key).map((candidate) => (JSON.parse(candidate.value) as { index: number }).index);
        expect(order).toEqual([1, 3, 11, 13, 21, 23]);
      }
      expect(await subject().read(other, 15)).toHaveLength(15);
    });

    it('says the broker is unavailable when it cannot be reached', async () => {
      await expect(subject().unreachable.publish([message(topicName(), 'stream-a', 1)])).rejects.toBeInstanceOf(MessageBrokerUnavailableError);
    });
  });
}
