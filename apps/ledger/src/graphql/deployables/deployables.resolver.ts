import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { Principal } from '@ledger/auth';
import { Allow } from '@ledger/auth/nest';
import { type AttachHandleView, type DeployableView, InventoryQueries } from '@ledger/projections/inventory';
import { attachHandlesSeenBy } from '../../inventory/attach-handles-seen-by';
import { pathUuid } from '../../inventory/inventory-not-found';
import { INVENTORY_AS_OF } from '../../audit/as-of-views';
import { AS_OF_ARG, GraphqlAsOf } from '../shared/as-of';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { GqlPrincipal } from '../shared/gql-principal';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { AttachHandleObject, DeployableConnection, DeployableObject } from './deployable.object';
import { DeployableListArgs } from './deployables.args';

/** Deployables and their attach handles, as GET /api/v1/deployables serves them: operators only (admin, manager). */
@Resolver(() => DeployableObject)
@Allow('admin', 'manager')
export class DeployablesResolver {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(GraphqlAsOf) private readonly asOf: GraphqlAsOf,
  ) {}

  @Query(() => DeployableConnection, { description: 'Deployables by host, then uuid.', complexity: connectionCost })
  async deployables(@Args() args: DeployableListArgs): Promise<ConnectionOf<DeployableView>> {
    const { asOf } = args;
    const { hostname, deviceUuid, resourceClass } = args;
    const filter = { ...presentArgs({ hostname, deviceUuid, resourceClass }), ...pageRequestOf(args) };
    const { position, answer } = await this.asOf.root(asOf, INVENTORY_AS_OF, this.queries, (queries) => queries.listDeployables(filter));
    return toConnection(answer, position);
  }

  @Query(() => DeployableObject, { nullable: true })
  async deployable(@Args('uuid') uuid: string, @Args(AS_OF_ARG) asOf?: string | null): Promise<DeployableView | undefined> {
    const deployableUuid = pathUuid(uuid);
    return this.asOf.node(asOf, INVENTORY_AS_OF, this.queries, (queries) => queries.getDeployable(deployableUuid));
  }

  @ResolveField(() => [AttachHandleObject], { description: 'Every handle (at most 4096).', complexity: 50 })
  async attachHandles(@Parent() deployable: DeployableView, @GqlPrincipal() principal: Principal): Promise<AttachHandleView[]> {
    const { answer } = await this.asOf.under(deployable, INVENTORY_AS_OF, this.queries, (queries) => queries.listAttachHandles(deployable.uuid));
    return attachHandlesSeenBy(principal, answer);
  }
}
