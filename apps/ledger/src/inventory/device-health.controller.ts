import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { ClearDeviceHealthCommand, MAX_HEALTH_CLEAR_NOTE_LENGTH } from '@ledger/inventory';
import { InventoryQueries } from '@ledger/projections/inventory';
import { commandContext } from '../http/command-context';
import { deviceNotFound, pathUuid } from './inventory-not-found';

/** POST /api/v1/devices/{uuid}/health/clear */
export class ClearDeviceHealthRequest {
  @ApiPropertyOptional({ example: 'GPU reset, row remap done, burn-in passed', description: 'what the operator did: recorded on the clear' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_HEALTH_CLEAR_NOTE_LENGTH)
  note?: string;
}

export class ClearDeviceHealthResponse {
  @ApiProperty({ format: 'uuid' })
  uuid!: string;

  @ApiProperty({ example: 1, description: 'events appended (DeviceHealthChanged to ok); 0 when the device was healthy' })
  appended!: number;

  @ApiProperty({ nullable: true })
  position!: number | null;
}

/**
 * The operator's side of the health policy (docs/operations.md, "Health
 * policy"): a device whose recovery is `operator`, or any unhealthy one, is
 * declared healthy again. Admin only. Errors: INVENTORY.DEVICE_NOT_FOUND
 * (404), INVENTORY.COMMAND_INVALID (400).
 */
@ApiTags('inventory')
@Controller('api/v1/devices')
@Allow('admin')
export class DeviceHealthController {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {}

  @Post(':uuid/health/clear')
  @HttpCode(200)
  @ApiOperation({ summary: "Declare an unhealthy device healthy again: it is offered once more (idempotent); the clear names the operator and the policy's version" })
  @ApiOkResponse({ type: ClearDeviceHealthResponse })
  async clear(
    @Param('uuid') uuid: string,
    @Body() body: ClearDeviceHealthRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<ClearDeviceHealthResponse> {
    const device = await this.queries.getDevice(pathUuid(uuid));
    if (!device) throw deviceNotFound(uuid);
    const target = { deviceUuid: uuid, hostname: device.hostname, note: body?.note ?? null };
    const result = await this.commands.execute(new ClearDeviceHealthCommand(target, commandContext(principal, request)));
    return { uuid: uuid.toLowerCase(), appended: result.appended, position: result.position ?? null };
  }
}
