import { Inject } from '@nestjs/common';
import { Args, Info, Query, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { Allow } from '@ledger/auth/nest';
import { type DeviceView, InventoryQueries } from '@ledger/projections/inventory';
import { withBareVendorId } from '../../inventory/device-filter';
import { pathUuid } from '../../inventory/inventory-not-found';
import { INVENTORY_AS_OF } from '../../audit/as-of-views';
import { AS_OF_ARG, GraphqlAsOf } from '../shared/as-of';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { DeviceConnection, DeviceObject } from './device.object';
import { type DeviceNode, selectedDeviceFields } from './device-fields';
import { DeviceListArgs } from './devices.args';

/** Devices, as GET /api/v1/devices serves them: operators only (admin, manager). */
@Resolver(() => DeviceObject)
@Allow('admin', 'manager')
export class DevicesResolver {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(GraphqlAsOf) private readonly asOf: GraphqlAsOf,
  ) {}

  @Query(() => DeviceConnection, { description: 'Devices by host, then uuid.', complexity: connectionCost })
  async devices(@Args() args: DeviceListArgs, @Info() info: GraphQLResolveInfo): Promise<ConnectionOf<DeviceNode>> {
    const { asOf } = args;
    const { hostname, type, vendor, status } = args;
    const filter = withBareVendorId({ ...presentArgs({ hostname, type, vendor, status }), ...pageRequestOf(args) });
    const { position, answer } = await this.asOf.root(asOf, INVENTORY_AS_OF, this.queries, (queries) => queries.listDeviceFields(filter, selectedDeviceFields(info)));
    return toConnection(answer, position);
  }

  @Query(() => DeviceObject, { nullable: true })
  async device(@Args('uuid') uuid: string, @Args(AS_OF_ARG) asOf?: string | null): Promise<DeviceView | undefined> {
    const deviceUuid = pathUuid(uuid);
    return this.asOf.node(asOf, INVENTORY_AS_OF, this.queries, (queries) => queries.getDevice(deviceUuid));
  }
}
