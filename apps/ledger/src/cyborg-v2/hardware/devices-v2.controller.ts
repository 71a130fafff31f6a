import { Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { CurrentPrincipal, PolicyRule } from '@ledger/auth/nest';
import { DisableDeviceCommand, EnableDeviceCommand, type InventoryCommandResult } from '@ledger/inventory';
import { type DeviceView, InventoryQueries, inventoryProjection } from '@ledger/projections/inventory';
import { commandContext } from '../../http/command-context';
import { ConsistencyService } from '../../http/consistency.service';
import { deviceNotFound, pathUuid } from '../../inventory/inventory-not-found';
import { baseUrlOf } from '../cyborg-representation';
import { CyborgV2Controller } from '../cyborg-v2.controller';
import type { Microversion } from '../microversion';
import { RequestMicroversion } from '../microversion.interceptor';
import { cyborgDevice } from './hardware-v2.representation';
import { cyborgSearch, type RawQuery, single } from './hardware-v2.query';

const DEVICE_SORT_KEYS = {
  uuid: 'uuid',
  type: 'type',
  vendor: 'vendorId',
  model: 'model',
  hostname: 'hostname',
  status: 'status',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
} as const;

/**
 * Cyborg's devices (CYBORG-V2.md §1.3): global, read by managers, put in
 * and out of maintenance by admins. Reads wait for the projection to
 * include every earlier write.
 */
@CyborgV2Controller('devices')
export class DevicesV2Controller {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  /** `?type=&vendor=&hostname=` match exactly (vendor also with `0x` and in any case), plus limit / sort_key / sort_dir. */
  @Get()
  @PolicyRule('cyborg:device:get_all')
  async list(@Query() query: RawQuery, @RequestMicroversion() version: Microversion, @Req() request: FastifyRequest) {
    const search = cyborgSearch(query, DEVICE_SORT_KEYS);
    await this.consistency.awaitFresh([inventoryProjection.name]);
    const devices = await this.queries.searchDevices({
      ...search,
      type: single(query, 'type'),
      hostname: single(query, 'hostname'),
      vendor: single(query, 'vendor')?.replace(/^0x/i, ''),
    });
    return { devices: devices.map((device) => cyborgDevice(device, baseUrlOf(request), version)) };
  }

  @Get(':uuid')
  @PolicyRule('cyborg:device:get_one')
  async get(@Param('uuid') uuid: string, @RequestMicroversion() version: Microversion, @Req() request: FastifyRequest) {
    await this.consistency.awaitFresh([inventoryProjection.name]);
    return cyborgDevice(await this.device(uuid), baseUrlOf(request), version);
  }

  /**
   * Cyborg added disable/enable with 2.3 but never checks the version, and
   * answers with no body. Ours works at every version and answers the
   * device, always with its `status`: that is what the call changed.
   */
  @Post(':uuid/disable')
  @HttpCode(200)
  @PolicyRule('cyborg:device:disable')
  disable(
    @Param('uuid') uuid: string,
    @RequestMicroversion() version: Microversion,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ) {
    return this.maintain(uuid, version, request, (hostname) =>
      this.commands.execute(new DisableDeviceCommand({ deviceUuid: uuid, hostname, reason: null }, commandContext(principal, request))),
    );
  }

  @Post(':uuid/enable')
  @HttpCode(200)
  @PolicyRule('cyborg:device:enable')
  enable(
    @Param('uuid') uuid: string,
    @RequestMicroversion() version: Microversion,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ) {
    return this.maintain(uuid, version, request, (hostname) =>
      this.commands.execute(new EnableDeviceCommand({ deviceUuid: uuid, hostname }, commandContext(principal, request))),
    );
  }

  private async maintain(
    uuid: string,
    version: Microversion,
    request: FastifyRequest,
    run: (hostname: string) => Promise<InventoryCommandResult>,
  ) {
    await this.consistency.awaitFresh([inventoryProjection.name]);
    const device = await this.device(uuid);
    const result = await run(device.hostname);
    if (result.position !== undefined) await this.consistency.awaitPosition(result.position, [inventoryProjection.name]);
    return cyborgDevice(await this.device(uuid), baseUrlOf(request), version, true);
  }

  private async device(uuid: string): Promise<DeviceView> {
    const device = await this.queries.getDevice(pathUuid(uuid));
    if (!device) throw deviceNotFound(uuid);
    return device;
  }
}
