export * from './arq.schema';
export * from './arq.queries';
export * from './arq.projection';
export * from './nova-outbox';
export * from './nova-outbox.queries';
