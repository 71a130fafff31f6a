import { Module } from '@nestjs/common';
import type { SqlDatabase } from '@ledger/processing';
import { FleetOverviewQueries } from '@ledger/projections/inventory';
import { READ_MODEL_DB } from '../infrastructure/tokens';
import { ConsistencyService } from '../http/consistency.service';
import { DeployablesController } from './deployables.controller';
import { DeviceCleanController } from './device-clean.controller';
import { DeviceHealthController } from './device-health.controller';
import { DevicesController } from './devices.controller';
import { FleetOverviewController } from './fleet-overview.controller';
import { HostReportController } from './host-report.controller';
import { HostFenceController } from './host-fence.controller';
import { HostsController } from './hosts.controller';
import { inventoryQueriesProvider } from './inventory-queries.provider';

/** The native inventory API: the agents' report endpoint and the reads of the inventory projection. */
@Module({
  controllers: [HostReportController, HostsController, HostFenceController, DevicesController, DeviceCleanController, DeviceHealthController, DeployablesController, FleetOverviewController],
  providers: [inventoryQueriesProvider, { provide: FleetOverviewQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new FleetOverviewQueries(db) }, ConsistencyService],
})
export class InventoryHttpModule {}
