import { describeWithService } from '../../../../test/support/services';
import { type KafkaMock, kafkaMockUnavailable, startKafkaMock } from '../../../../test/support/kafka-mock';
import { readTopics } from '../../../../test/support/kafka-topics';
import { messagePublisherContract } from '../testing/message-publisher.contract';
import { KafkaMessagePublisher } from './kafka-message-publisher';

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

  const read = async (topic: string, count: number) =>
    (await readTopics(kafka.brokers, [topic], (received) => received.length >= count)).slice(0, count).map(({ key, value, headers }) => ({ key: key ?? '', value, headers }));

  messagePublisherContract('Kafka', () => ({ publisher, unreachable, read }));
});
