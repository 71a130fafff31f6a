import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Allow, type Principal } from '@ledger/auth';
import { type AttachHandleView, type DeployableView, InventoryQueries } from '@ledger/projections/inventory';
import { attachHandlesSeenBy } from '../../inventory/attach-handles-seen-by';
import { pathUuid } from '../../inventory/inventory-not-found';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { GqlPrincipal } from '../shared/gql-principal';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { AttachHandleObject, DeployableConnection, DeployableObject } from './deployable.object';
import { DeployableListArgs } from './deployables.args';

/** Deployables and their attach handles, as GET /api/v1/deployables serves them: operators only (admin, manager). */
@Resolver(() => DeployableObject)
@Allow('admin', 'manager')
export class DeployablesResolver {
  constructor(@Inject(InventoryQueries) private readonly queries: InventoryQueries) {}

  @Query(() => DeployableConnection, { description: 'Deployables by host, then uuid.', complexity: connectionCost })
  async deployables(@Args() args: DeployableListArgs): Promise<ConnectionOf<DeployableView>> {
    const { hostname, deviceUuid, resourceClass } = args;
    return toConnection(await this.queries.listDeployables({ ...presentArgs({ hostname, deviceUuid, resourceClass }), ...pageRequestOf(args) }));
  }

  @Query(() => DeployableObject, { nullable: true })
  async deployable(@Args('uuid') uuid: string): Promise<DeployableView | undefined> {
    return this.queries.getDeployable(pathUuid(uuid));
  }

  @ResolveField(() => [AttachHandleObject], { description: 'Every handle (at most 4096).', complexity: 50 })
  async attachHandles(@Parent() deployable: DeployableView, @GqlPrincipal() principal: Principal): Promise<AttachHandleView[]> {
    return attachHandlesSeenBy(principal, await this.queries.listAttachHandles(deployable.uuid));
  }
}
