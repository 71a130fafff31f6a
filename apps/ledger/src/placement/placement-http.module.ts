import { Module } from '@nestjs/common';
import { ConsistencyService } from '../http/consistency.service';
import { HostPlacementController } from './host-placement.controller';
import { PlacementFleetController } from './placement-fleet.controller';
import { placementQueriesProvider } from './placement-queries.provider';
import { placementSyncQueriesProvider } from './placement-sync-queries.provider';

/** The native API's reads of the desired Placement state and of where Placement stands with it. */
@Module({
  controllers: [HostPlacementController, PlacementFleetController],
  providers: [placementQueriesProvider, placementSyncQueriesProvider, ConsistencyService],
})
export class PlacementHttpModule {}
