import { Controller, Get, Headers, Inject, Param } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth/nest';
import { type DesiredHostPlacement, type HostSyncStatus, PlacementSyncQueries } from '@ledger/placement';
import { PlacementQueries } from '@ledger/projections/placement';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { hostNotFound } from '../inventory/inventory-not-found';
import { HostPlacementWithSyncResponse } from './placement.responses';

@ApiTags('placement')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/hosts')
export class HostPlacementController {
  constructor(
    @Inject(PlacementQueries) private readonly queries: PlacementQueries,
    @Inject(PlacementSyncQueries) private readonly sync: PlacementSyncQueries,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Get(':hostname/placement')
  @Allow('admin', 'manager')
  @ApiOperation({
    summary: "What Placement should hold for the host's accelerators (a child provider per deployable, each with why it is reserved), and where Placement stands with it",
    description: 'The desired state (docs/placement.md), from the placement projection, not what Placement holds now; `sync` is the reconciler\'s last word on the host.',
  })
  @ApiOkResponse({ type: HostPlacementWithSyncResponse })
  async placement(
    @Param('hostname') hostname: string,
    @Headers(MIN_POSITION_HEADER) minPosition?: string,
  ): Promise<DesiredHostPlacement & { sync: HostSyncStatus | null }> {
    await this.consistency.awaitHeader(minPosition);
    const desired = await this.queries.host(hostname);
    if (!desired) throw hostNotFound(hostname);
    return { ...desired, sync: (await this.sync.host(hostname)) ?? null };
  }
}
