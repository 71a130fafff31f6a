import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { AsOfRebuilds, type SqlDatabase } from '@ledger/processing';
import { DeviceHistoryQueries } from '@ledger/projections/device-history';
import { ConsistencyService } from '../http/consistency.service';
import { LEDGER_CONFIG, READ_MODEL_DB } from '../infrastructure/tokens';
import { AsOfReads } from './as-of-reads.service';
import { dataDirSnapshots } from './read-model-snapshots';
import { ChainVerifyController } from './chain-verify.controller';
import { DeviceHistoryController } from './device-history.controller';
import { UsageReports } from './usage/usage-reports.service';
import { UsageController } from './usage/usage.controller';

/**
 * The auditor's reads of the native API: device tenancy and timelines, and
 * the as-of answers every read route with `?asOf=` gives (global, so the
 * inventory, quota, request and workflow routes, and GraphQL, share one
 * cache of rebuilds, starting from the data dir's snapshots, and one
 * DeviceHistoryQueries).
 */
@Global()
@Module({
  controllers: [DeviceHistoryController, ChainVerifyController, UsageController],
  providers: [
    { provide: DeviceHistoryQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new DeviceHistoryQueries(db) },
    {
      provide: AsOfRebuilds,
      inject: [EVENT_STORE, LEDGER_CONFIG],
      useFactory: (store: EventStore, config: LedgerConfig) => new AsOfRebuilds(store, undefined, dataDirSnapshots(config, store)),
    },
    AsOfReads,
    ConsistencyService,
    UsageReports,
  ],
  exports: [AsOfReads, AsOfRebuilds, DeviceHistoryQueries, UsageReports],
})
export class AuditHttpModule implements OnApplicationShutdown {
  constructor(@Inject(AsOfRebuilds) private readonly rebuilds: AsOfRebuilds) {}

  async onApplicationShutdown(): Promise<void> {
    await this.rebuilds.close();
  }
}
