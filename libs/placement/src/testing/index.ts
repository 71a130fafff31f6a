export * from './in-memory-placement-api';
export * from './in-memory-desired-placement-source';
export * from './placement-allocations';
export * from './placement-api.contract';
