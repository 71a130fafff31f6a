import { Inject } from '@nestjs/common';
import { Args, Info, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { Allow } from '@ledger/auth/nest';
import { type HostView, InventoryQueries } from '@ledger/projections/inventory';
import { withBareVendorId } from '../../inventory/device-filter';
import { HostObject } from '../hosts/host.object';
import { INVENTORY_AS_OF } from '../../audit/as-of-views';
import { GraphqlAsOf } from '../shared/as-of';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { DeviceConnection } from './device.object';
import { type DeviceNode, selectedDeviceFields } from './device-fields';
import { DeviceFilterArgs } from './devices.args';

/** A host's devices: the same read as `devices(hostname:)`, at the host's as-of position when it has one. */
@Resolver(() => HostObject)
@Allow('admin', 'manager')
export class HostDevicesResolver {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(GraphqlAsOf) private readonly asOf: GraphqlAsOf,
  ) {}

  @ResolveField(() => DeviceConnection, { complexity: connectionCost })
  async devices(@Parent() host: HostView, @Args() args: DeviceFilterArgs, @Info() info: GraphQLResolveInfo): Promise<ConnectionOf<DeviceNode>> {
    const { type, vendor, status } = args;
    const filter = withBareVendorId({ hostname: host.hostname, ...presentArgs({ type, vendor, status }), ...pageRequestOf(args) });
    const { position, answer } = await this.asOf.under(host, INVENTORY_AS_OF, this.queries, (queries) => queries.listDeviceFields(filter, selectedDeviceFields(info)));
    return toConnection(answer, position);
  }
}
