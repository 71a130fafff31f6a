/** One message for a broker: the key orders it among its key's messages (one partition per key). */
export interface OutgoingMessage {
  readonly topic: string;
  readonly key: string;
  readonly value: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Where the ledger hands messages to other services (Kafka). `publish`
 * resolves once the broker acknowledged every message of the batch (all
 * in-sync replicas); a batch is sent in order, and one key's messages keep
 * that order. It throws `MessageBrokerUnavailableError` when the broker
 * cannot be reached (try again later) and `MessageRejectedError` when it
 * refuses a message (sending it again will not help).
 */
export interface MessagePublisher {
  publish(messages: readonly OutgoingMessage[]): Promise<void>;
  close(): Promise<void>;
}
