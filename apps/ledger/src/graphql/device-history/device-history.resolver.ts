import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import type { Principal } from '@ledger/auth';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { Allow } from '@ledger/auth/nest';
import { DeviceHistoryQueries, type TenancyView, type TimelinePage } from '@ledger/projections/device-history';
import { projectScopeOf, tenancyRangeOf } from '../../audit/device-history-scope';
import { pathUuid } from '../../inventory/inventory-not-found';
import { GqlPrincipal } from '../shared/gql-principal';
import { presentArgs } from '../shared/page.args';
import { TenancyRangeArgs, TimelinePageArgs } from './device-history.args';
import { DeviceTenancyObject, DeviceTimelineObject } from './device-history.object';

/**
 * The auditor's questions about one device, as GET /api/v1/devices/{uuid}/tenancy
 * and /timeline answer them: any reader, an operator seeing every project's
 * use of the device and anyone else only their own project's (the REST
 * controller's scope); an unknown device has an empty history. Fresh as of
 * X-Ledger-Min-Position, which the /graphql route awaits for every query.
 */
@Resolver(() => DeviceTenancyObject)
@Allow('admin', 'manager', 'member', 'reader')
export class DeviceHistoryResolver {
  constructor(
    @Inject(DeviceHistoryQueries) private readonly queries: DeviceHistoryQueries,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Query(() => DeviceTenancyObject, { description: 'Who held the device, when.', complexity: 50 })
  async deviceTenancy(@Args() args: TenancyRangeArgs, @GqlPrincipal() principal: Principal): Promise<{ deviceUuid: string; tenancies: TenancyView[] }> {
    const deviceUuid = pathUuid(args.device);
    const range = await tenancyRangeOf(args, this.store);
    return { deviceUuid, tenancies: await this.queries.tenancies(deviceUuid, range, projectScopeOf(principal)) };
  }

  @Query(() => DeviceTimelineObject, { description: 'Every event that touched the device, in log order, a page at a time.', complexity: 50 })
  async deviceTimeline(@Args() args: TimelinePageArgs, @GqlPrincipal() principal: Principal): Promise<{ deviceUuid: string } & TimelinePage> {
    const deviceUuid = pathUuid(args.device);
    const { after, limit } = args;
    return { deviceUuid, ...(await this.queries.timeline(deviceUuid, presentArgs({ after, limit }), projectScopeOf(principal))) };
  }
}
