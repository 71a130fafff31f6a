// The Decider moved to the kernel, where every context reaches it without a path into the event store;
// re-exported here so `@ledger/eventstore` keeps offering it to the code that runs deciders.
export { type Decider, type DomainEvent, foldEvents } from '@ledger/kernel';
