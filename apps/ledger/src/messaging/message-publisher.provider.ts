import { Logger, type Provider } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import { KafkaMessagePublisher, type MessagePublisher } from '@ledger/messaging';
import { tracedPublisher } from '../tracing/traced-publisher';

/** The ledger's Kafka publisher, or null when LEDGER_KAFKA_BROKERS is unset. */
export const MESSAGE_PUBLISHER = Symbol('MESSAGE_PUBLISHER');

/** Made once per process (the relay and the checkpoints share its connection), and said at start when it is off. */
export const messagePublisherProvider = (config: LedgerConfig): Provider => ({
  provide: MESSAGE_PUBLISHER,
  useFactory: (): MessagePublisher | null => {
    if (config.kafka.brokers.length === 0) {
      new Logger('Kafka').log('Kafka relay off: LEDGER_KAFKA_BROKERS is not set, so events and head checkpoints are not published to Kafka');
      return null;
    }
    new Logger('Kafka').log(`publishing to ${config.kafka.brokers.join(',')} under the topic prefix ${config.kafka.topicPrefix}`);
    const publisher = new KafkaMessagePublisher({ brokers: config.kafka.brokers, clientId: `accelerator-ledger-${config.instanceId}` });
    return config.tracing ? tracedPublisher(publisher) : publisher;
  },
});
