import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth/nest';
import { type DesiredHostPlacement, type HostSyncStatus, PlacementSyncQueries } from '@ledger/placement';
import type { HostView } from '@ledger/projections/inventory';
import { PlacementQueries } from '@ledger/projections/placement';
import { HostObject } from '../hosts/host.object';
import { refuseUnderAsOf } from '../shared/as-of';
import { HostPlacementObject } from './host-placement.object';

type HostPlacement = DesiredHostPlacement & { sync: HostSyncStatus | null };

/** The Placement view of a host, as GET /api/v1/hosts/{hostname}/placement serves it: operators only (admin, manager). */
@Resolver(() => HostObject)
@Allow('admin', 'manager')
export class HostPlacementResolver {
  constructor(
    @Inject(PlacementQueries) private readonly queries: PlacementQueries,
    @Inject(PlacementSyncQueries) private readonly sync: PlacementSyncQueries,
  ) {}

  @Query(() => HostPlacementObject, { nullable: true, description: 'Null for a host that never had accelerators.', complexity: 20 })
  async hostPlacement(@Args('hostname') hostname: string): Promise<HostPlacement | undefined> {
    return this.placementOf(hostname);
  }

  @ResolveField(() => HostPlacementObject, { nullable: true, name: 'placement', complexity: 20 })
  async placement(@Parent() host: HostView): Promise<HostPlacement | undefined> {
    refuseUnderAsOf(host, 'Host.placement');
    return this.placementOf(host.hostname);
  }

  private async placementOf(hostname: string): Promise<HostPlacement | undefined> {
    const desired = await this.queries.host(hostname);
    if (!desired) return undefined;
    return { ...desired, sync: (await this.sync.host(hostname)) ?? null };
  }
}
