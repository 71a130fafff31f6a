import type { EventStore } from '../../event-store.port';

/** A store opened for one test, and how to get rid of it (close it and remove what it created). */
export interface OpenedStore {
  readonly store: EventStore;
  cleanup(): Promise<void>;
}

export type OpenStore = () => Promise<OpenedStore>;

/** What each part of the contract sees: the store of the running test. */
export interface ContractContext {
  readonly store: EventStore;
}
