import { Kafka, logLevel } from 'kafkajs';

export interface KafkaClientOptions {
  /** `host:port` bootstrap brokers (LEDGER_KAFKA_BROKERS). */
  readonly brokers: readonly string[];
  readonly clientId: string;
}

/**
 * A kafkajs client that leaves retrying to its caller: a few quick retries
 * inside kafkajs (none for a producer's send: KafkaMessagePublisher), then
 * the error, so the reactor runtime's backoff (and its status) is the one
 * place that waits while Kafka is down. kafkajs' own
 * logging is off: failures surface as errors where they happen.
 */
export function kafkaClient(options: KafkaClientOptions): Kafka {
  return new Kafka({
    clientId: options.clientId,
    brokers: [...options.brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1000 },
  });
}
