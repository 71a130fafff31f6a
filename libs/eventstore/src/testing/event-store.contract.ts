import type { EventStore } from '../event-store.port';
import { concurrencyContract } from './contract/concurrency.contract';
import type { ContractContext, OpenedStore, OpenStore } from './contract/contract-context';
import { envelopeContract } from './contract/envelope.contract';
import { expectedVersionContract } from './contract/expected-version.contract';
import { hashChainContract } from './contract/hash-chain.contract';
import { multiAppendContract } from './contract/multi-append.contract';
import { readAllContract } from './contract/read-all.contract';
import { readStreamContract } from './contract/read-stream.contract';
import { storedChainContract } from './contract/stored-chain.contract';
import { subscriptionContract } from './contract/subscription.contract';

/** What an adapter may lack, said up front so the suite checks the store says the same. */
export interface StoreCapabilities {
  /** `appendMany` over several streams (default true; see the port). */
  readonly multiStreamAppend: boolean;
}

/**
 * The one behaviour every EventStore adapter must have. `open` is called
 * before each test and `cleanup` after it (it must close the store). Tests
 * use fresh streams and categories and measure from the head they find, so
 * a persistent server that already holds events passes too.
 */
export function describeEventStoreContract(
  name: string,
  open: OpenStore,
  describeFn: jest.Describe = describe,
  capabilities: StoreCapabilities = { multiStreamAppend: true },
): void {
  describeFn(`EventStore contract: ${name}`, () => {
    let opened: OpenedStore | undefined;
    const context: ContractContext = {
      get store(): EventStore {
        if (!opened) throw new Error('the contract store is opened in beforeEach');
        return opened.store;
      },
    };

    beforeEach(async () => {
      opened = await open();
    });

    afterEach(async () => {
      await opened?.cleanup();
      opened = undefined;
    });

    describe('expected version', () => expectedVersionContract(context));
    describe('readStream', () => readStreamContract(context));
    describe('readAll', () => readAllContract(context));
    describe('concurrent writers', () => concurrencyContract(context));
    describe('appendMany', () => multiAppendContract(context, capabilities.multiStreamAppend));
    describe('subscriptions', () => subscriptionContract(context));
    describe('hash chain', () => hashChainContract(context));
    describe('hash chain over stored text', () => storedChainContract(context));
    describe('envelope', () => envelopeContract(context));
  });
}
