import { Controller, Get, Headers, Inject, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { type FleetOverview, FleetOverviewQueries } from '@ledger/projections/inventory';
import { projectScopeOf } from '../audit/device-history-scope';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { FleetOverviewQuery } from './fleet-overview.query.dto';

/** What is wrong in the fleet right now: counts by state and a page of the matching hosts, aggregated in the read model. */
@ApiTags('inventory')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/fleet')
@Allow('admin', 'manager')
export class FleetOverviewController {
  constructor(
    @Inject(FleetOverviewQueries) private readonly queries: FleetOverviewQueries,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'The fleet at a glance: hosts by agent state and status, devices by type, status and health, and a page of the matching hosts (by name) with their devices',
  })
  async overview(
    @Query() query: FleetOverviewQuery,
    @CurrentPrincipal() principal: Principal,
    @Headers(MIN_POSITION_HEADER) minPosition?: string,
  ): Promise<FleetOverview> {
    await this.consistency.awaitHeader(minPosition);
    const { limit, cursor, attention, ...filter } = query;
    // A manager finds hosts by their own project's requests only: another project's use of the fleet stays out of sight.
    return this.queries.overview({ ...filter, attention: attention === 'true', requestsOf: projectScopeOf(principal) }, { limit, cursor });
  }
}
