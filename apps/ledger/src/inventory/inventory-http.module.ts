import { Module } from '@nestjs/common';
import { ConsistencyService } from '../http/consistency.service';
import { DeployablesController } from './deployables.controller';
import { DevicesController } from './devices.controller';
import { HostReportController } from './host-report.controller';
import { HostsController } from './hosts.controller';
import { inventoryQueriesProvider } from './inventory-queries.provider';

/** The native inventory API: the agents' report endpoint and the reads of the inventory projection. */
@Module({
  controllers: [HostReportController, HostsController, DevicesController, DeployablesController],
  providers: [inventoryQueriesProvider, ConsistencyService],
})
export class InventoryHttpModule {}
