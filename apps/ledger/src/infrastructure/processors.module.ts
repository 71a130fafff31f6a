import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { type Processor, ProcessorRuntime, type SqlDatabase } from '@ledger/processing';
import { arqProjection } from '@ledger/projections/arqs';
import { inventoryProjection } from '@ledger/projections/inventory';
import { quotaProjection } from '@ledger/projections/quota';
import { deviceProfilesProjection } from '@ledger/projections/device-profiles';
import { jobsProjection } from '@ledger/projections/jobs';
import { placementProjection } from '@ledger/projections/placement';
import { PROCESSOR_RUNTIME, READ_MODEL_DB } from './tokens';

/** Every processor the ledger runs, in one list. */
export const LEDGER_PROCESSORS: readonly Processor[] = [inventoryProjection, deviceProfilesProjection, quotaProjection, arqProjection, jobsProjection, placementProjection];

@Injectable()
class ProcessorLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(PROCESSOR_RUNTIME) private readonly runtime: ProcessorRuntime) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runtime.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runtime.stop();
  }
}

/**
 * The `processors` role: feeds the global log to every processor, each
 * under a lease so that only one ledger process runs it at a time.
 */
@Module({})
export class ProcessorsModule {
  static forRoot(config: LedgerConfig): DynamicModule {
    const logger = new Logger('Processors');
    return {
      module: ProcessorsModule,
      global: true,
      providers: [
        {
          provide: PROCESSOR_RUNTIME,
          inject: [EVENT_STORE, READ_MODEL_DB],
          useFactory: (store: EventStore, db: SqlDatabase) =>
            new ProcessorRuntime({
              store,
              db,
              processors: LEDGER_PROCESSORS,
              owner: config.instanceId,
              leaseTtlMs: config.processorLeaseMs,
              logger,
            }),
        },
        ProcessorLifecycle,
      ],
      exports: [PROCESSOR_RUNTIME],
    };
  }
}
