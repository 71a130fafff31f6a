import { MessageBrokerUnavailableError } from '../application/message-publisher.errors';
import type { MessagePublisher, OutgoingMessage } from '../application/message-publisher.port';

/** A broker in memory for unit tests: keeps what was published, and can be taken down. */
export class InMemoryMessageBroker implements MessagePublisher {
  readonly published: OutgoingMessage[] = [];
  down = false;

  async publish(messages: readonly OutgoingMessage[]): Promise<void> {
    if (this.down) throw new MessageBrokerUnavailableError('the in-memory broker is down');
    this.published.push(...messages);
  }

  async close(): Promise<void> {}

  /** What one topic received, in order. */
  topic(name: string): OutgoingMessage[] {
    return this.published.filter((message) => message.topic === name);
  }
}
