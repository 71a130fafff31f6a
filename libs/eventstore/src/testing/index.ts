export * from './event-store.contract';
export type { OpenedStore, OpenStore } from './contract/contract-context';
export { contractActor, metadata, newEvent, probe, readAllAfter, take, uniqueCategory, uniqueStream, untilVisible } from './contract/fixtures';
export { appendBurstUntilKilled } from './append-burst-crash';
export { appendManyBesideSingleAppends } from './contract/multi-append.contract';
export * from './decider-spec';
