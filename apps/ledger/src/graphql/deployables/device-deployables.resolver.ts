import { Inject } from '@nestjs/common';
import { Args, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth';
import { type DeployableView, type DeviceView, InventoryQueries } from '@ledger/projections/inventory';
import { DeviceObject } from '../devices/device.object';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { DeployableConnection } from './deployable.object';
import { DeployableFilterArgs } from './deployables.args';

/** A device's deployables: the same read as `deployables(deviceUuid:)`. */
@Resolver(() => DeviceObject)
@Allow('admin', 'manager')
export class DeviceDeployablesResolver {
  constructor(@Inject(InventoryQueries) private readonly queries: InventoryQueries) {}

  @ResolveField(() => DeployableConnection, { complexity: connectionCost })
  async deployables(@Parent() device: DeviceView, @Args() args: DeployableFilterArgs): Promise<ConnectionOf<DeployableView>> {
    return toConnection(await this.queries.listDeployables({ deviceUuid: device.uuid, ...presentArgs({ resourceClass: args.resourceClass }), ...pageRequestOf(args) }));
  }
}
