import { type DynamicModule, Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { eventStoreOptions, type LedgerConfig, readModelOptions } from '@ledger/config';
import { EVENT_STORE, type EventStore, openEventStore, STREAM_FRESHNESS, STREAM_LOCKS, StreamLocks, StreamVersionWatch } from '@ledger/eventstore';
import type { MessagePublisher } from '@ledger/messaging';
import type { SqlDatabase } from '@ledger/processing';
import { MESSAGE_PUBLISHER, messagePublisherProvider } from '../messaging/message-publisher.provider';
import { tracedEventStore } from '../tracing/traced-event-store';
import { HeadCheckpointsService } from './head-checkpoints.service';
import { openReadModels } from './open-read-models';
import type { LedgerMetrics } from '../metrics/ledger-metrics';
import { READ_MODELS_PREPARATION, ReadModelsPreparation } from './read-models-preparation';
import { LEDGER_CONFIG, OPTIONAL_METRICS, READ_MODEL_DB } from './tokens';

@Injectable()
class PersistenceShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(STREAM_FRESHNESS) private readonly watch: StreamVersionWatch,
    @Inject(READ_MODEL_DB) private readonly readModels: SqlDatabase,
    @Inject(MESSAGE_PUBLISHER) private readonly publisher: MessagePublisher | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.watch.close();
    await this.publisher?.close();
    await this.readModels.close();
    await this.store.close();
  }
}

/** The configured event store, reporting its appends and group commits to the metrics when they are on, and traced when tracing is. */
async function openStore(config: LedgerConfig, metrics: LedgerMetrics | undefined): Promise<EventStore> {
  const options = eventStoreOptions(config);
  const store = await openEventStore(options.kind === 'esdb' || !metrics ? options : { ...options, observer: metrics.eventStore });
  return config.tracing ? tracedEventStore(store) : store;
}

/** The event store and its stream locks, the read-model database and the Kafka publisher, opened from configuration, closed last; the head checkpoints' signer; whether the read models are prepared yet. */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(config: LedgerConfig): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        { provide: LEDGER_CONFIG, useValue: config },
        { provide: EVENT_STORE, inject: [OPTIONAL_METRICS], useFactory: (metrics?: LedgerMetrics) => openStore(config, metrics) },
        // One per process: every writer of a stream (a command, a bind over several streams, a reactor) queues on it.
        { provide: STREAM_LOCKS, useFactory: () => new StreamLocks() },
        // The hosts' streams: every heartbeat and report decides on one, and they rarely move (docs/agent-protocol.md, "The lean path").
        { provide: STREAM_FRESHNESS, inject: [EVENT_STORE], useFactory: (store: EventStore) => new StreamVersionWatch(store, { categories: ['host'] }) },
        { provide: READ_MODEL_DB, useFactory: () => openReadModels(readModelOptions(config)) },
        messagePublisherProvider(config),
        PersistenceShutdown,
        // The writers sign the head: a process without the conductor role appends nothing to vouch for.
        ...(config.roles.includes('conductor') ? [HeadCheckpointsService] : []),
        {
          provide: READ_MODELS_PREPARATION,
          inject: [READ_MODEL_DB],
          // A process running the processors prepares the read models before it serves; one without waits for another's.
          useFactory: (db: SqlDatabase) => (config.roles.includes('processors') ? null : new ReadModelsPreparation(db)),
        },
      ],
      exports: [LEDGER_CONFIG, EVENT_STORE, STREAM_LOCKS, STREAM_FRESHNESS, READ_MODEL_DB, MESSAGE_PUBLISHER, READ_MODELS_PREPARATION, ...(config.roles.includes('conductor') ? [HeadCheckpointsService] : [])],
    };
  }
}
