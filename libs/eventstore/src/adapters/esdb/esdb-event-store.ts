import { type EventStoreDBClient, FORWARDS, StreamNotFoundError } from '@eventstore/db-client';
import type { NewEvent, RecordedEvent } from '../../envelope';
import { MultiStreamAppendUnsupportedError } from '../../errors/multi-stream-append-unsupported.error';
import { StoreClosedError } from '../../errors/store-closed.error';
import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ReadAllOptions,
  ReadAllResult,
  ReadStreamOptions,
  StreamAppend,
  SubscribeOptions,
  Subscription,
} from '../../event-store.port';
import { AppendSignal } from '../shared/append-signal';
import { prepareAppend } from '../shared/prepare-append';
import { prepareAppendMany } from '../shared/prepare-append-many';
import type { PreparedAppend } from '../shared/prepared-append';
import { SubscriptionRegistry } from '../shared/subscription-registry';
import { appendEsdb } from './append-esdb';
import { type EsdbChainHead, readEsdbChainHead } from './esdb-chain-head';
import { fromEsdbEvent } from './esdb-ledger-metadata';
import { EsdbLogReader } from './esdb-log-reader';

/**
 * EventStoreDB / KurrentDB, kept thin. EventStoreDB has no global lock a
 * client could take, so the ledger's gap-free position and hash chain are
 * assigned here, one append at a time, from the chain head read at open and
 * kept in memory. That is correct for ONE writer process per cluster: a
 * second writer would fork the chain. Readers may run anywhere.
 *
 * `@eventstore/db-client` appends to one stream per call, so `appendMany`
 * takes one stream only: appending several one after another would leave a
 * part written if the process or the connection died in between.
 * KurrentDB 25.1+ with `@kurrent/kurrentdb-client` would make it one call
 * (docs/architecture.md, "The event store").
 */
export class EsdbEventStore implements EventStore {
  readonly kind = 'esdb';
  readonly multiStreamAppend = false;
  private readonly reader: EsdbLogReader;
  private readonly appended = new AppendSignal();
  private readonly subscriptions = new SubscriptionRegistry();
  /** Appends run one after another: each extends the head the previous one left. */
  private writing: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly client: EventStoreDBClient,
    /** Undefined when an append failed in an unknown state: reread before the next one. */
    private head: EsdbChainHead | undefined,
  ) {
    this.reader = new EsdbLogReader(client);
  }

  async append(stream: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    return this.enqueue(prepareAppend(stream, events, options.expected));
  }

  async appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    this.assertOpen();
    const prepared = prepareAppendMany(appends);
    if (prepared.length > 1) throw new MultiStreamAppendUnsupportedError(this.kind, prepared.map((append) => append.stream));
    return [await this.enqueue(prepared[0])];
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    // An empty slice needs no round trip.
    if (options.max === 0) return [];
    const events: RecordedEvent[] = [];
    try {
      const reads = this.client.readStream(stream, {
        direction: FORWARDS,
        // Version v is revision v - 1 (see esdb-revision).
        fromRevision: BigInt((options.fromVersion ?? 1) - 1),
        ...(options.max === undefined ? {} : { maxCount: options.max }),
      });
      for await (const { event } of reads) {
        const recorded = event && fromEsdbEvent(event);
        if (recorded) events.push(recorded);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options?: ReadAllOptions): Promise<ReadAllResult> {
    this.assertOpen();
    return this.reader.readAll(options);
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return (await readEsdbChainHead(this.client)).position;
  }

  subscribe(options?: SubscribeOptions): Subscription {
    this.assertOpen();
    return this.subscriptions.subscribe(this, options);
  }

  /** Wakes on this process's appends; other processes' are seen when the timeout lets the caller poll. */
  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.appended.wait(timeoutMs, signal);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.subscriptions.closeAll();
    await this.writing;
    this.appended.notify();
    await this.client.dispose();
  }

  private enqueue(append: PreparedAppend): Promise<AppendResult> {
    const appending = this.writing.then(() => this.appendNext(append));
    this.writing = appending.catch(() => undefined);
    return appending;
  }

  private async appendNext(append: PreparedAppend): Promise<AppendResult> {
    const head = this.head ?? (await readEsdbChainHead(this.client));
    try {
      const appended = await appendEsdb(this.client, head, append);
      this.head = appended.head;
      this.appended.notify();
      return appended.result;
    } catch (error) {
      // A conflict wrote nothing; anything else (a timeout, a lost connection) may have.
      if (!(error instanceof WrongExpectedVersionError)) this.head = undefined;
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}
