import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { DisableDeviceCommand, EnableDeviceCommand } from '@ledger/inventory';
import { InventoryQueries } from '@ledger/projections/inventory';
import { AsOfQuery } from '../audit/as-of.query';
import { AsOfReads, asOfOrMinPosition } from '../audit/as-of-reads.service';
import { INVENTORY_AS_OF } from '../audit/as-of-views';
import { commandContext } from '../http/command-context';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { withBareVendorId } from './device-filter';
import { DisableDeviceRequest } from './device-maintenance.request.dto';
import { deviceNotFound, pathUuid } from './inventory-not-found';
import { DeviceListQuery } from './inventory.query.dto';
import { DeviceMaintenanceResponse } from './inventory.responses';

@ApiTags('inventory')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/devices')
export class DevicesController {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Inject(AsOfReads) private readonly asOf: AsOfReads,
  ) {}

  @Get()
  @Allow('admin', 'manager')
  @ApiOperation({ summary: 'Devices, filtered by host, type, PCI vendor id and status' })
  async list(@Query() query: DeviceListQuery, @Res({ passthrough: true }) reply: FastifyReply, @Headers(MIN_POSITION_HEADER) minPosition?: string) {
    const filter = withBareVendorId(query);
    return this.asOf.read(asOfOrMinPosition(this.consistency, minPosition, query.asOf, reply), INVENTORY_AS_OF, this.queries, (queries) => queries.listDevices(filter));
  }

  @Get(':uuid')
  @Allow('admin', 'manager')
  @ApiOperation({ summary: 'One device' })
  async get(
    @Param('uuid') uuid: string,
    @Query() query: AsOfQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers(MIN_POSITION_HEADER) minPosition?: string,
  ) {
    const id = pathUuid(uuid);
    const device = await this.asOf.read(asOfOrMinPosition(this.consistency, minPosition, query.asOf, reply), INVENTORY_AS_OF, this.queries, (queries) => queries.getDevice(id));
    if (!device) throw deviceNotFound(uuid);
    return device;
  }

  @Post(':uuid/disable')
  @HttpCode(200)
  @Allow('admin')
  @ApiOperation({ summary: 'Take a device out of service for maintenance (idempotent)' })
  @ApiOkResponse({ type: DeviceMaintenanceResponse })
  async disable(
    @Param('uuid') uuid: string,
    @Body() body: DisableDeviceRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<DeviceMaintenanceResponse> {
    const hostname = await this.hostOf(uuid);
    const result = await this.commands.execute(
      new DisableDeviceCommand({ deviceUuid: uuid, hostname, reason: body?.reason ?? null }, commandContext(principal, request)),
    );
    return { uuid: uuid.toLowerCase(), status: 'maintaining', appended: result.appended, position: result.position ?? null };
  }

  @Post(':uuid/enable')
  @HttpCode(200)
  @Allow('admin')
  @ApiOperation({ summary: 'Return a device to service (idempotent)' })
  @ApiOkResponse({ type: DeviceMaintenanceResponse })
  async enable(
    @Param('uuid') uuid: string,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<DeviceMaintenanceResponse> {
    const hostname = await this.hostOf(uuid);
    const result = await this.commands.execute(new EnableDeviceCommand({ deviceUuid: uuid, hostname }, commandContext(principal, request)));
    return { uuid: uuid.toLowerCase(), status: 'enabled', appended: result.appended, position: result.position ?? null };
  }

  /** The host that reports the device, from the read model; the command re-checks it against the host's stream. */
  private async hostOf(uuid: string): Promise<string> {
    const device = await this.queries.getDevice(pathUuid(uuid));
    if (!device) throw deviceNotFound(uuid);
    return device.hostname;
  }
}
