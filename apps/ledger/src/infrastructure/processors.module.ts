import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { KEYSTONE_SESSION, type KeystoneSession } from '@ledger/auth';
import type { LedgerConfig } from '@ledger/config';
import type { PlacementReconciler } from '@ledger/placement';
import { PLACEMENT_RECONCILER, placementReconcilerProviders } from '@ledger/placement/nest';
import { EVENT_STORE, type EventStore, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import type { MessagePublisher } from '@ledger/messaging';
import { type Processor, ProcessorRuntime, ReactorRuntime, SharedLogTail, type SqlDatabase } from '@ledger/processing';
import { REPLAYABLE_PROJECTIONS } from '@ledger/projections/catalog';
import { PlacementQueries } from '@ledger/projections/placement';
import type { WorkflowRuntime } from '@ledger/workflows';
import { MESSAGE_PUBLISHER } from '../messaging/message-publisher.provider';
import { placementQueriesProvider } from '../placement/placement-queries.provider';
import { tracedProcessor, tracedReactor } from '../tracing/traced-processors';
import { ledgerReactors } from './ledger-reactors';
import type { LedgerMetrics } from '../metrics/ledger-metrics';
import { LEDGER_CONFIG, LOG_TAIL, OPTIONAL_METRICS, PROCESSOR_RUNTIME, REACTOR_RUNTIME, READ_MODEL_DB, WORKFLOW_RUNTIME } from './tokens';

/** Every processor the ledger runs: the read models an auditor can also rebuild as of any point. */
export const LEDGER_PROCESSORS: readonly Processor[] = [...REPLAYABLE_PROJECTIONS.values()];

@Injectable()
class ProcessorLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(PROCESSOR_RUNTIME) private readonly runtime: ProcessorRuntime,
    @Inject(REACTOR_RUNTIME) private readonly reactors: ReactorRuntime,
    // Absent in a processors-only process: workflows send through the conductor's command bus.
    @Optional() @Inject(WORKFLOW_RUNTIME) private readonly workflows: WorkflowRuntime | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runtime.start();
    await this.reactors.start();
    await this.workflows?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Workflows first, then reactors: each may be waiting on what starts before it (a send, a projection's position).
    await this.workflows?.stop();
    await this.reactors.stop();
    await this.runtime.stop();
  }
}

/**
 * The `processors` role: feeds the global log to every projection and
 * reactor, each under a lease so that only one ledger process runs it at a
 * time, runs the workflows (`ledgerWorkflows`, each under its own lease) and
 * the Placement reconciler's periodic compare (under its own lease).
 */
@Module({})
export class ProcessorsModule {
  static forRoot(config: LedgerConfig): DynamicModule {
    const logger = new Logger('Processors');
    return {
      module: ProcessorsModule,
      global: true,
      providers: [
        { provide: LOG_TAIL, inject: [EVENT_STORE], useFactory: (store: EventStore) => new SharedLogTail(store) },
        {
          provide: PROCESSOR_RUNTIME,
          inject: [EVENT_STORE, LOG_TAIL, READ_MODEL_DB, OPTIONAL_METRICS],
          useFactory: (store: EventStore, tail: SharedLogTail, db: SqlDatabase, metrics?: LedgerMetrics) =>
            new ProcessorRuntime({
              store,
              tail,
              db,
              processors: config.tracing ? LEDGER_PROCESSORS.map(tracedProcessor) : LEDGER_PROCESSORS,
              owner: config.instanceId,
              leaseTtlMs: config.processorLeaseMs,
              logger,
              observer: metrics?.processors,
            }),
        },
        {
          provide: REACTOR_RUNTIME,
          inject: [EVENT_STORE, STREAM_LOCKS, LOG_TAIL, READ_MODEL_DB, PROCESSOR_RUNTIME, PLACEMENT_RECONCILER, ModuleRef, MESSAGE_PUBLISHER, { token: KEYSTONE_SESSION, optional: true }, OPTIONAL_METRICS],
          useFactory: (
            store: EventStore,
            streamLocks: StreamLocks,
            tail: SharedLogTail,
            db: SqlDatabase,
            projections: ProcessorRuntime,
            placementReconciler: PlacementReconciler | null,
            moduleRef: ModuleRef,
            publisher: MessagePublisher | null,
            keystoneSession: KeystoneSession | null | undefined,
            metrics?: LedgerMetrics,
          ) => {
            const reactors = ledgerReactors(config, {
              store,
              streamLocks,
              readModels: db,
              projections,
              placementReconciler,
              moduleRef,
              publisher,
              keystoneSession: keystoneSession ?? null,
              logger: new Logger('Reactors'),
            });
            return new ReactorRuntime({
              store,
              tail,
              db,
              reactors: config.tracing ? reactors.map(tracedReactor) : reactors,
              owner: config.instanceId,
              leaseTtlMs: config.processorLeaseMs,
              stalledAfterMs: config.reactorStalledAfterMs,
              logger: new Logger('Reactors'),
              observer: metrics?.processors,
            });
          },
        },
        placementQueriesProvider,
        // The reconciler (null when it is off) and its periodic compare, started at bootstrap.
        ...placementReconcilerProviders({ config: LEDGER_CONFIG, readModelDb: READ_MODEL_DB, desiredSource: PlacementQueries }),
        ProcessorLifecycle,
      ],
      exports: [LOG_TAIL, PROCESSOR_RUNTIME, REACTOR_RUNTIME, PLACEMENT_RECONCILER],
    };
  }
}
