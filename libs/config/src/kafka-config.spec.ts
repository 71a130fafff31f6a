import { loadKafkaConfig } from './kafka-config';

describe('loadKafkaConfig', () => {
  it('is off without brokers and uses the default prefix', () => {
    expect(loadKafkaConfig({})).toEqual({ brokers: [], topicPrefix: 'accelerator-ledger' });
  });

  it('reads a comma-separated broker list and a prefix', () => {
    expect(loadKafkaConfig({ LEDGER_KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9092', LEDGER_KAFKA_TOPIC_PREFIX: 'prod.ledger' })).toEqual({
      brokers: ['kafka-1:9092', 'kafka-2:9092'],
      topicPrefix: 'prod.ledger',
    });
  });

  it('refuses a broker without a port and a prefix Kafka would refuse', () => {
    expect(() => loadKafkaConfig({ LEDGER_KAFKA_BROKERS: 'kafka-1' })).toThrow('LEDGER_KAFKA_BROKERS: "kafka-1" is not host:port');
    expect(() => loadKafkaConfig({ LEDGER_KAFKA_TOPIC_PREFIX: 'has space' })).toThrow('LEDGER_KAFKA_TOPIC_PREFIX');
  });
});
