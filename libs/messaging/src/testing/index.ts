export * from './in-memory-message-broker';
export * from './message-publisher.contract';
