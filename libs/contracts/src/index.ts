export * from './topics';
export * from './envelope';
export * from './event-catalog.generated';
export type * from './event-types';
