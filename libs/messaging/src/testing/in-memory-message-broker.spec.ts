import { InMemoryMessageBroker } from './in-memory-message-broker';
import { messagePublisherContract } from './message-publisher.contract';

const broker = new InMemoryMessageBroker();
const unreachable = Object.assign(new InMemoryMessageBroker(), { down: true });

messagePublisherContract('in memory', () => ({ publisher: broker, unreachable, read: async (topic, count) => broker.topic(topic).slice(0, count).map(({ key, value, headers }) => ({ key, value, headers })) }));
