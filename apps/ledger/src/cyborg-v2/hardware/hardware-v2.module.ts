import { Module } from '@nestjs/common';
import { ConsistencyService } from '../../http/consistency.service';
import { inventoryQueriesProvider } from '../../inventory/inventory-queries.provider';
import { AttributesV2Controller } from './attributes-v2.controller';
import { DeployablesV2Controller } from './deployables-v2.controller';
import { DevicesV2Controller } from './devices-v2.controller';

/** Devices, deployables and attributes under /v2 (CYBORG-V2.md §1.3), read from the inventory projection. */
@Module({
  controllers: [DevicesV2Controller, DeployablesV2Controller, AttributesV2Controller],
  providers: [inventoryQueriesProvider, ConsistencyService],
})
export class HardwareV2Module {}
