import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { AsOfRebuilds, type SqlDatabase } from '@ledger/processing';
import { DeviceHistoryQueries } from '@ledger/projections/device-history';
import { ConsistencyService } from '../http/consistency.service';
import { READ_MODEL_DB } from '../infrastructure/tokens';
import { AsOfReads } from './as-of-reads.service';
import { ChainVerifyController } from './chain-verify.controller';
import { DeviceHistoryController } from './device-history.controller';
import { UsageReports } from './usage/usage-reports.service';
import { UsageController } from './usage/usage.controller';

/**
 * The auditor's reads of the native API: device tenancy and timelines, and
 * the as-of answers every read route with `?asOf=` gives (global, so the
 * inventory, quota, request and workflow routes, and GraphQL, share one
 * cache of rebuilds and one DeviceHistoryQueries).
 */
@Global()
@Module({
  controllers: [DeviceHistoryController, ChainVerifyController, UsageController],
  providers: [
    { provide: DeviceHistoryQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new DeviceHistoryQueries(db) },
    { provide: AsOfRebuilds, inject: [EVENT_STORE], useFactory: (store: EventStore) => new AsOfRebuilds(store) },
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
