import { randomUUID } from 'node:crypto';
import { describeWithService } from '../../../../test/support/services';
import { type KafkaMock, kafkaMockUnavailable, startKafkaMock } from '../../../../test/support/kafka-mock';
import type { ReceivedMessage } from '../application/received-message';
import { messagePublisherContract } from '../testing/message-publisher.contract';
import { KafkaMessagePublisher } from './kafka-message-publisher';
import { KafkaMessageSource } from './kafka-message-source';

describeWithService('Kafka (librdkafka mock cluster via kcat)', kafkaMockUnavailable())('KafkaMessagePublisher', () => {
  let kafka: KafkaMock;
  let publisher: KafkaMessagePublisher;
  const unreachable = new KafkaMessagePublisher({ brokers: ['127.0.0.1:1'], clientId: 'contract-unreachable' });

  beforeAll(async () => {
    kafka = await startKafkaMock();
    publisher = new KafkaMessagePublisher({ brokers: kafka.brokers, clientId: 'contract' });
  });
  afterAll(async () => {
    await publisher?.close();
    await unreachable.close();
    await kafka?.stop();
  });

  /** Reads a topic from its beginning with a fresh consumer group until it holds `count` messages. */
  const read = async (topic: string, count: number) => {
    const source = new KafkaMessageSource({ brokers: kafka.brokers, clientId: 'contract-reader', groupId: `contract-${randomUUID()}`, topics: [topic] });
    const received: ReceivedMessage[] = [];
    let enough!: () => void;
    const done = new Promise<void>((resolve) => (enough = resolve));
    await source.start(async (messages) => {
      received.push(...messages);
      if (received.length >= count) enough();
    });
    await done;
    await source.stop();
    return received.slice(0, count).map(({ key, value, headers }) => ({ key: key ?? '', value, headers }));
  };

  messagePublisherContract('Kafka', () => ({ publisher, unreachable, read }));
});
