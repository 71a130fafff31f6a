import { Body, Controller, HttpCode, Inject, Param, Put, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Allow, CurrentPrincipal, HostScoped, type Principal } from '@ledger/auth';
import { ReportHostCommand } from '@ledger/inventory';
import { commandContext } from '../http/command-context';
import { HostReportRequest } from './host-report.request.dto';
import { HostReportResponse } from './inventory.responses';

@ApiTags('agents')
@Controller('api/v1/hosts')
export class HostReportController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Put(':hostname/report')
  @HttpCode(200)
  @Allow('agent', 'admin')
  @HostScoped('hostname')
  @ApiOperation({
    summary: "An agent's full picture of its host",
    description:
      'The ledger diffs the report against what it knows and appends only the changes (device discovered, changed, removed; ' +
      'attach handles added, removed). An unchanged report appends nothing. An agent credential may report only its own host.',
  })
  @ApiOkResponse({ type: HostReportResponse })
  async report(
    @Param('hostname') hostname: string,
    @Body() body: HostReportRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<HostReportResponse> {
    const result = await this.commands.execute(
      new ReportHostCommand({ hostname, devices: body.devices }, commandContext(principal, request)),
    );
    return { hostname, appended: result.appended, position: result.position ?? null, events: [...result.eventTypes] };
  }
}
