import { Controller, Get, Headers, Inject, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ledger/auth';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { DeviceHistoryQueries, type TenancyView, type TimelinePage } from '@ledger/projections/device-history';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { pathUuid } from '../inventory/inventory-not-found';
import { projectScopeOf, tenancyRangeOf } from './device-history-scope';
import { TenancyRangeQuery, TimelinePageQuery } from './device-history.query.dto';

/**
 * The auditor's questions about one device, answered from the
 * device-history projection (docs/audit.md). An unknown device has no
 * history: an empty answer, not a 404, so a tenant learns nothing about
 * devices it never held.
 */
@ApiTags('audit')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/devices')
export class DeviceHistoryController {
  constructor(
    @Inject(DeviceHistoryQueries) private readonly queries: DeviceHistoryQueries,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Get(':uuid/tenancy')
  @Allow('admin', 'manager', 'member', 'reader')
  @ApiOperation({ summary: 'Who held the device, when: attach handle, region, request, instance, project, device profile and bitstream of each tenancy (a tenant sees its own project\'s)' })
  async tenancy(
    @Param('uuid') uuid: string,
    @Query() query: TenancyRangeQuery,
    @CurrentPrincipal() principal: Principal,
    @Headers(MIN_POSITION_HEADER) minPosition?: string,
  ): Promise<{ deviceUuid: string; tenancies: TenancyView[] }> {
    const deviceUuid = pathUuid(uuid);
    const range = await tenancyRangeOf(query, this.store);
    await this.consistency.awaitHeader(minPosition);
    return { deviceUuid, tenancies: await this.queries.tenancies(deviceUuid, range, projectScopeOf(principal)) };
  }

  @Get(':uuid/timeline')
  @Allow('admin', 'manager', 'member', 'reader')
  @ApiOperation({ summary: "Every event that touched the device, in log order, a page at a time (a tenant sees its own project's use of it)" })
  async timeline(
    @Param('uuid') uuid: string,
    @Query() query: TimelinePageQuery,
    @CurrentPrincipal() principal: Principal,
    @Headers(MIN_POSITION_HEADER) minPosition?: string,
  ): Promise<{ deviceUuid: string } & TimelinePage> {
    const deviceUuid = pathUuid(uuid);
    await this.consistency.awaitHeader(minPosition);
    return { deviceUuid, ...(await this.queries.timeline(deviceUuid, query, projectScopeOf(principal))) };
  }
}
