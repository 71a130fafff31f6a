import { Body, Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { ProvisionHostCommand, type ProvisionStarted } from '@ledger/provisioning';
import { commandContext } from '../http/command-context';
import { ProvisionHostBody } from './provision-host.request.dto';

/** Bringing a host into service: the provision workflow (docs/workflows.md, "The provision workflow"). */
@ApiTags('workflows')
@Controller('api/v1/hosts')
export class ProvisionHostController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Post(':hostname/provision')
  @HttpCode(202)
  @Allow('admin')
  @ApiOperation({
    summary: 'Bring a host into service: load a registered shell on its FPGA and configure its VFs (the provision workflow)',
    description:
      'Answers once the workflow waits for the agent, with Location naming the instance (GET /api/v1/workflows/provision/{id}). ' +
      '404 BITSTREAM.NOT_FOUND, INVENTORY.HOST_NOT_FOUND, PROVISION.DEVICE_NOT_FOUND; 409 INVENTORY.HOST_PROVISIONING, PROVISION.NO_FPGA, PROVISION.DEVICE_REQUIRED, PROVISION.BITSTREAM_RETIRED, PROVISION.BITSTREAM_UNTRUSTED.',
  })
  async provision(
    @Param('hostname') hostname: string,
    @Body() body: ProvisionHostBody,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ProvisionStarted> {
    const started = await this.commands.execute(new ProvisionHostCommand({ hostname, ...body }, commandContext(principal, request)));
    reply.header('Location', `/api/v1/workflows/provision/${started.workflowId}`);
    return started;
  }
}
