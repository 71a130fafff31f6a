import { Module } from '@nestjs/common';
import { ConsistencyService } from '../http/consistency.service';
import { HostPlacementController } from './host-placement.controller';
import { placementQueriesProvider } from './placement-queries.provider';

/** The native API's reads of the desired Placement state. */
@Module({
  controllers: [HostPlacementController],
  providers: [placementQueriesProvider, ConsistencyService],
})
export class PlacementHttpModule {}
