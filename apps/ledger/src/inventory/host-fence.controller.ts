import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { FenceHostCommand, UnfenceHostCommand } from '@ledger/inventory';
import { commandContext } from '../http/command-context';

/** POST /api/v1/hosts/{hostname}/fence */
export class FenceHostRequest {
  @ApiProperty({ example: 'PSU dead, host unreachable', description: 'why the host is fenced: recorded on the fence and on every release it makes' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  reason!: string;
}

export class HostFenceResponse {
  @ApiProperty()
  hostname!: string;

  @ApiProperty({ description: 'whether the host is fenced now' })
  fenced!: boolean;

  @ApiProperty({ example: 1, description: 'events appended on the host stream; 0 when the host was already fenced' })
  appended!: number;

  @ApiProperty({ nullable: true })
  position!: number | null;
}

/**
 * Fencing a dead host (docs/operations.md, "Fencing a host"): admin only.
 * Errors: INVENTORY.HOST_NOT_FOUND (404), INVENTORY.COMMAND_INVALID (400),
 * INVENTORY.HOST_NOT_FENCED (409, unfence of a host not fenced).
 */
@ApiTags('inventory')
@Controller('api/v1/hosts')
@Allow('admin')
export class HostFenceController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Post(':hostname/fence')
  @HttpCode(200)
  @ApiOperation({ summary: 'Fence a host: release every hold on its devices with the reason, reserve its providers, refuse binds (idempotent)' })
  @ApiOkResponse({ type: HostFenceResponse })
  async fence(
    @Param('hostname') hostname: string,
    @Body() body: FenceHostRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<HostFenceResponse> {
    const result = await this.commands.execute(new FenceHostCommand({ hostname, reason: body?.reason }, commandContext(principal, request)));
    return { hostname, fenced: true, appended: result.appended, position: result.position ?? null };
  }

  @Post(':hostname/unfence')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unfence a host: its devices are offered and claimable again' })
  @ApiOkResponse({ type: HostFenceResponse })
  async unfence(@Param('hostname') hostname: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<HostFenceResponse> {
    const result = await this.commands.execute(new UnfenceHostCommand({ hostname }, commandContext(principal, request)));
    return { hostname, fenced: false, appended: result.appended, position: result.position ?? null };
  }
}
