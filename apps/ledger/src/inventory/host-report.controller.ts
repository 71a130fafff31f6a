import { Body, Controller, HttpCode, Inject, Param, Put, Req, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal, HostScoped } from '@ledger/auth/nest';
import { ReportHostCommand } from '@ledger/inventory';
import { ReportSightingInterceptor } from '../agents/report-sighting.interceptor';
import { commandContext } from '../http/command-context';
import { requestBodyDigest } from '../http/request-body-digest';
import { HostReportRequest } from './host-report.request.dto';
import { hostReportResponse } from './host-report.response';
import { HostReportResponse } from './inventory.responses';

/**
 * The report route as Nest declares it. The lean route installed over it (agents/lean-agent-routes.ts) answers an
 * unchanged report at once and hands every other report to this handler (the full path).
 */
@ApiTags('agents')
@Controller('api/v1/hosts')
export class HostReportController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Put(':hostname/report')
  @HttpCode(200)
  @Allow('agent', 'admin')
  @HostScoped('hostname')
  @UseInterceptors(ReportSightingInterceptor)
  @ApiOperation({
    summary: "An agent's full picture of its host",
    description:
      'The ledger diffs the report against what it knows and appends only the changes (device discovered, changed, removed; ' +
      'attach handles added, removed). An unchanged report appends nothing; one byte-identical to the last unchanged one is ' +
      'recognised without being parsed into objects. An agent credential may report only its own host.',
  })
  @ApiOkResponse({ type: HostReportResponse })
  async report(
    @Param('hostname') hostname: string,
    @Body() body: HostReportRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<HostReportResponse> {
    const result = await this.commands.execute(
      new ReportHostCommand({ hostname, devices: body.devices }, commandContext(principal, request), undefined, requestBodyDigest(request)),
    );
    return hostReportResponse(hostname, result);
  }
}
