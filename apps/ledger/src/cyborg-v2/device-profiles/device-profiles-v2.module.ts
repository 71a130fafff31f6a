import { Module } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { DeviceProfileQueries } from '@ledger/projections/device-profiles';
import { ConsistencyService } from '../../http/consistency.service';
import { READ_MODEL_DB } from '../../infrastructure/tokens';
import { DeviceProfilesV2Controller } from './device-profiles-v2.controller';

/** Device profiles under /v2 (CYBORG-V2.md §1.3). Exports DeviceProfileQueries for the ARQ endpoints. */
@Module({
  controllers: [DeviceProfilesV2Controller],
  providers: [
    { provide: DeviceProfileQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new DeviceProfileQueries(db) },
    ConsistencyService,
  ],
  exports: [DeviceProfileQueries],
})
export class DeviceProfilesV2Module {}
