import { Module } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { DeviceHistoryQueries } from '@ledger/projections/device-history';
import { ConsistencyService } from '../http/consistency.service';
import { READ_MODEL_DB } from '../infrastructure/tokens';
import { DeviceHistoryController } from './device-history.controller';

/** The auditor's reads of the native API: device tenancy and timelines. */
@Module({
  controllers: [DeviceHistoryController],
  providers: [{ provide: DeviceHistoryQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new DeviceHistoryQueries(db) }, ConsistencyService],
})
export class AuditHttpModule {}
