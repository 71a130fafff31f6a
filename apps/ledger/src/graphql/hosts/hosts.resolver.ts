import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth/nest';
import { type HostView, InventoryQueries } from '@ledger/projections/inventory';
import { INVENTORY_AS_OF } from '../../audit/as-of-views';
import { AS_OF_ARG, GraphqlAsOf } from '../shared/as-of';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { connectionCost, pageRequestOf } from '../shared/page.args';
import { HostListArgs } from './hosts.args';
import { HostConnection, HostObject } from './host.object';

/** Hosts, as GET /api/v1/hosts serves them: operators only (admin, manager). */
@Resolver(() => HostObject)
@Allow('admin', 'manager')
export class HostsResolver {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(GraphqlAsOf) private readonly asOf: GraphqlAsOf,
  ) {}

  @Query(() => HostConnection, { description: 'Hosts by name.', complexity: connectionCost })
  async hosts(@Args() { asOf, ...page }: HostListArgs): Promise<ConnectionOf<HostView>> {
    const { position, answer } = await this.asOf.root(asOf, INVENTORY_AS_OF, this.queries, (queries) => queries.listHosts(pageRequestOf(page)));
    return toConnection(answer, position);
  }

  @Query(() => HostObject, { nullable: true })
  async host(@Args('hostname') hostname: string, @Args(AS_OF_ARG) asOf?: string | null): Promise<HostView | undefined> {
    return this.asOf.node(asOf, INVENTORY_AS_OF, this.queries, (queries) => queries.getHost(hostname));
  }
}
