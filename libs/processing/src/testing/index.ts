export * from './in-memory-event-store';
export * from './test-events';
export * from './stream-counter.projection';
export * from './capturing-logger';
export * from './eventually';
export * from './test-databases';
export * from './sql-database.contract';
export * from './projection-batches';
