import { Body, Controller, Get, Inject, Param, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { QuotaReader, SetQuotaLimitsCommand } from '@ledger/quota';
import { QuotaQueries } from '@ledger/projections/quota';
import { AsOfQuery } from '../audit/as-of.query';
import { AsOfReads } from '../audit/as-of-reads.service';
import { QUOTA_AS_OF } from '../audit/as-of-views';
import { commandContext } from '../http/command-context';
import { PageQuery } from '../inventory/inventory.query.dto';
import { PutQuotaLimitsRequest } from './quota-limits.request.dto';
import { assertMayReadQuota } from './quota-project-access';
import { QuotaChangeResponse, QuotaProjectsResponse, QuotaResponse } from './quota.responses';

/**
 * Per-project limits. Reads come from the project's quota stream (through
 * QuotaReader), not from the projection: it is what reservations are
 * checked against, always fresh, with no wait for processors. `?asOf=`
 * answers from the quota projection rebuilt up to that point instead.
 */
@ApiTags('quota')
@Controller('api/v1/quotas')
export class QuotasController {
  constructor(
    @Inject(QuotaReader) private readonly reader: QuotaReader,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(AsOfReads) private readonly asOf: AsOfReads,
    @Inject(QuotaQueries) private readonly projects: QuotaQueries,
  ) {}

  @Get()
  @Allow('admin')
  @ApiOperation({
    summary: 'Projects with a limit set or something in use, by name, with their limits and usage (a page at a time)',
    description: 'From the quota projection, so at most a moment behind the quota streams that GET /api/v1/quotas/{project} reads.',
  })
  @ApiOkResponse({ type: QuotaProjectsResponse })
  async list(@Query() query: PageQuery): Promise<QuotaProjectsResponse> {
    return this.projects.listProjects(query);
  }

  @Get(':project')
  @Allow('admin', 'manager', 'member', 'reader')
  @ApiOperation({ summary: "A project's limits and usage (admins: any project; others: their own)" })
  @ApiOkResponse({ type: QuotaResponse })
  async get(
    @Param('project') project: string,
    @Query() query: AsOfQuery,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<QuotaResponse> {
    assertMayReadQuota(principal, project);
    if (query.asOf === undefined) {
      const { limits, usage } = await this.reader.read(project);
      return { project, limits, usage };
    }
    return this.asOf.past(query.asOf, reply, QUOTA_AS_OF, (queries) => queries.getProject(project));
  }

  @Put(':project')
  @Allow('admin')
  @ApiOperation({ summary: 'Set or remove (null) limits; limits not named are kept. Idempotent.' })
  @ApiOkResponse({ type: QuotaChangeResponse })
  async put(
    @Param('project') project: string,
    @Body() body: PutQuotaLimitsRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<QuotaChangeResponse> {
    const result = await this.commands.execute(new SetQuotaLimitsCommand({ project, limits: body.limits }, commandContext(principal, request)));
    const { limits, usage } = await this.reader.read(project);
    return { project, limits, usage, appended: result.appended, position: result.position };
  }
}
