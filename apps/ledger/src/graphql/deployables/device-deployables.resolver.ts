import { Inject } from '@nestjs/common';
import { Args, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth/nest';
import { type DeployableView, type DeviceView, InventoryQueries } from '@ledger/projections/inventory';
import { DeviceObject } from '../devices/device.object';
import { INVENTORY_AS_OF } from '../../audit/as-of-views';
import { GraphqlAsOf } from '../shared/as-of';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { DeployableConnection } from './deployable.object';
import { DeployableFilterArgs } from './deployables.args';

/** A device's deployables: the same read as `deployables(deviceUuid:)`, at the device's as-of position when it has one. */
@Resolver(() => DeviceObject)
@Allow('admin', 'manager')
export class DeviceDeployablesResolver {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(GraphqlAsOf) private readonly asOf: GraphqlAsOf,
  ) {}

  @ResolveField(() => DeployableConnection, { complexity: connectionCost })
  async deployables(@Parent() device: DeviceView, @Args() args: DeployableFilterArgs): Promise<ConnectionOf<DeployableView>> {
    const filter = { deviceUuid: device.uuid, ...presentArgs({ resourceClass: args.resourceClass }), ...pageRequestOf(args) };
    const { position, answer } = await this.asOf.under(device, INVENTORY_AS_OF, this.queries, (queries) => queries.listDeployables(filter));
    return toConnection(answer, position);
  }
}
