import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth';
import { type DeviceView, InventoryQueries } from '@ledger/projections/inventory';
import { withBareVendorId } from '../../inventory/device-filter';
import { pathUuid } from '../../inventory/inventory-not-found';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { DeviceConnection, DeviceObject } from './device.object';
import { DeviceListArgs } from './devices.args';

/** Devices, as GET /api/v1/devices serves them: operators only (admin, manager). */
@Resolver(() => DeviceObject)
@Allow('admin', 'manager')
export class DevicesResolver {
  constructor(@Inject(InventoryQueries) private readonly queries: InventoryQueries) {}

  @Query(() => DeviceConnection, { description: 'Devices by host, then uuid.', complexity: connectionCost })
  async devices(@Args() args: DeviceListArgs): Promise<ConnectionOf<DeviceView>> {
    const { hostname, type, vendor, status } = args;
    return toConnection(await this.queries.listDevices(withBareVendorId({ ...presentArgs({ hostname, type, vendor, status }), ...pageRequestOf(args) })));
  }

  @Query(() => DeviceObject, { nullable: true })
  async device(@Args('uuid') uuid: string): Promise<DeviceView | undefined> {
    return this.queries.getDevice(pathUuid(uuid));
  }
}
