export * from './application/message-publisher.port';
export * from './application/message-publisher.errors';
export * from './application/message-source.port';
export * from './application/received-message';
export * from './infrastructure/kafka-message-publisher';
export * from './infrastructure/kafka-message-source';
export * from './application/event-message';
export * from './application/checkpoint-message';
