import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { MAX_CLEAN_RELEASE_REASON_LENGTH, ReleaseCleanCommand, RetryCleanCommand } from '@ledger/inventory';
import { InventoryQueries } from '@ledger/projections/inventory';
import { commandContext } from '../http/command-context';
import { deviceNotFound, pathUuid } from './inventory-not-found';

/** POST /api/v1/devices/{uuid}/clean/release */
export class ReleaseCleanRequest {
  @ApiPropertyOptional({ example: 'inspected: no tenant data left', description: 'why the device is offered again without a clean' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CLEAN_RELEASE_REASON_LENGTH)
  reason?: string;
}

export class DeviceCleanResponse {
  @ApiProperty({ format: 'uuid' })
  uuid!: string;

  @ApiProperty({ example: 1, description: 'events appended' })
  appended!: number;

  @ApiProperty({ nullable: true })
  position!: number | null;
}

/**
 * An operator's answer to a failed clean (docs/operations.md, "Cleaning
 * released devices"): clean it again, or offer it without a clean. Both
 * refuse a device with no clean-failed handle (409 INVENTORY.CLEAN_NOT_FAILED).
 */
@ApiTags('inventory')
@Controller('api/v1/devices/:uuid/clean')
export class DeviceCleanController {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {}

  @Post('retry')
  @HttpCode(200)
  @Allow('admin')
  @ApiOperation({ summary: 'Clean a device whose clean failed again: a new clean job on its agent' })
  @ApiOkResponse({ type: DeviceCleanResponse })
  async retry(@Param('uuid') uuid: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<DeviceCleanResponse> {
    const deviceUuid = await this.known(uuid);
    const result = await this.commands.execute(new RetryCleanCommand({ deviceUuid }, commandContext(principal, request)));
    return { uuid: deviceUuid, appended: result.appended, position: result.position ?? null };
  }

  @Post('release')
  @HttpCode(200)
  @Allow('admin')
  @ApiOperation({ summary: 'Offer a device whose clean failed again without a clean' })
  @ApiOkResponse({ type: DeviceCleanResponse })
  async release(
    @Param('uuid') uuid: string,
    @Body() body: ReleaseCleanRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<DeviceCleanResponse> {
    const deviceUuid = await this.known(uuid);
    const result = await this.commands.execute(new ReleaseCleanCommand({ deviceUuid, reason: body?.reason ?? null }, commandContext(principal, request)));
    return { uuid: deviceUuid, appended: result.appended, position: result.position ?? null };
  }

  /** A device the inventory knows (404 otherwise): the device's stream then decides. */
  private async known(uuid: string): Promise<string> {
    const device = await this.queries.getDevice(pathUuid(uuid));
    if (!device) throw deviceNotFound(uuid);
    return device.uuid;
  }
}
