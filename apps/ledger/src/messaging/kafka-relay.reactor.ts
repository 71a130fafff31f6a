import type { RecordedEvent } from '@ledger/eventstore';
import { eventMessage, MessageBrokerUnavailableError, type MessagePublisher, MessageRejectedError } from '@ledger/messaging';
import { type Reactor, ReactorRejectedError, ReactorUnavailableError } from '@ledger/processing';

/**
 * Events per produce request: each batch also costs a read of the log and a
 * checkpoint commit, which larger batches spread thinner (docs/benchmarks.md, "Kafka relay").
 */
export const KAFKA_RELAY_BATCH = 1000;

export interface KafkaRelayPorts {
  readonly publisher: MessagePublisher;
  /** LEDGER_KAFKA_TOPIC_PREFIX. */
  readonly topicPrefix: string;
}

/**
 * Publishes every event of the log to Kafka (docs/kafka.md), as a reactor:
 * the runtime hands it the log after its checkpoint in batches of
 * KAFKA_RELAY_BATCH and moves the
 * checkpoint only once the broker acknowledged the whole batch, so a crash
 * re-sends at most the unacknowledged batch, and consumers deduplicate by
 * event id. While Kafka is down the runtime backs off and the ledger goes on
 * recording; nothing waits on the relay.
 */
export function kafkaRelayReactor(ports: KafkaRelayPorts): Reactor {
  const relay = async (events: readonly RecordedEvent[]): Promise<void> => {
    try {
      await ports.publisher.publish(events.map((event) => eventMessage(event, ports.topicPrefix)));
    } catch (error) {
      if (error instanceof MessageBrokerUnavailableError) throw new ReactorUnavailableError(error.message);
      if (error instanceof MessageRejectedError) throw new ReactorRejectedError(error.message);
      throw error;
    }
  };
  return {
    name: 'kafka-relay',
    handles: [],
    startAt: 'beginning',
    batchSize: KAFKA_RELAY_BATCH,
    react: (event) => relay([event]),
    reactBatch: (events) => relay(events),
  };
}
