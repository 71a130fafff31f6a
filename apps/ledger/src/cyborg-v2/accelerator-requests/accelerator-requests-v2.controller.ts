import { Body, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type ArqCaller,
  ArqErrorCodes,
  ArqNotFoundError,
  type ArqPatchCaller,
  commandOfArqDelete,
  commandOfArqPatch,
  CreateArqsCommand,
  isResolved,
  readArqDeleteQuery,
} from '@ledger/allocation';
import { hasRole, isAdmin, type Principal } from '@ledger/auth';
import { CurrentPrincipal, PolicyRule } from '@ledger/auth/nest';
import { ForbiddenError, isUuid } from '@ledger/kernel';
import { ArqQueries } from '@ledger/projections/arqs';
import { AsOfReads } from '../../audit/as-of-reads.service';
import { ARQS_AS_OF } from '../../audit/as-of-views';
import { commandContext } from '../../http/command-context';
import { visibilityOf } from '../../http/arq-visibility';
import { ConsistencyService } from '../../http/consistency.service';
import { baseUrlOf } from '../cyborg-representation';
import { CyborgV2Controller } from '../cyborg-v2.controller';
import type { Microversion } from '../microversion';
import { RequestMicroversion } from '../microversion.interceptor';
import { arqViewOf, cyborgArq } from './arq.representation';
import { readCreateArqsBody, readListQuery } from './arq.requests';

/**
 * Cyborg's accelerator requests (docs/cyborg-v2.md). Each route passes its
 * `cyborg:arq:*` policy rule (docs/policy.md); bind, unbind and delete by
 * instance also need the service role (Nova's X-Service-Token), a check in
 * code that no policy file can open (CVE-2026-40214). Tenants see only
 * their project's requests, filtered in the query. Bind, unbind and delete
 * are accepted on the collection (Cyborg, Nova) and on one request's path
 * (what `openstack accelerator` sends).
 */
@CyborgV2Controller('accelerator_requests')
export class AcceleratorRequestsV2Controller {
  constructor(
    @Inject(ArqQueries) private readonly arqs: ArqQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Inject(AsOfReads) private readonly asOf: AsOfReads,
  ) {}

  @Get()
  @PolicyRule('cyborg:arq:get_all')
  async list(
    @Query() query: Record<string, unknown>,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { instanceUuid, onlyResolved, asOf } = readListQuery(query);
    const arqs = await this.asOf.read({ asOf, reply, fresh: () => this.consistency.awaitFresh() }, ARQS_AS_OF, this.arqs, (arqs) =>
      arqs.list(visibilityOf(principal), instanceUuid !== undefined ? { instanceUuid } : {}),
    );
    if (onlyResolved && instanceUuid !== undefined && arqs.some((arq) => !isResolved(arq.state))) {
      // Cyborg's answer while some of the instance's binds are still running: 423, no body.
      reply.status(423).header('X-Error-Code', ArqErrorCodes.NOT_RESOLVED);
      return undefined;
    }
    const shown = onlyResolved ? arqs.filter((arq) => isResolved(arq.state)) : arqs;
    return { arqs: shown.map((arq) => cyborgArq(arq, baseUrlOf(request))) };
  }

  @Get(':uuid')
  @PolicyRule('cyborg:arq:get_one')
  async get(
    @Param('uuid') uuid: string,
    @Query('asOf') asOf: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (!isUuid(uuid)) throw new ArqNotFoundError(uuid);
    const fresh = () => this.consistency.awaitFresh();
    const arq = await this.asOf.read({ asOf, reply, fresh }, ARQS_AS_OF, this.arqs, (arqs) => arqs.get(uuid.toLowerCase(), visibilityOf(principal)));
    if (!arq) throw new ArqNotFoundError(uuid);
    return cyborgArq(arq, baseUrlOf(request));
  }

  @Post()
  @HttpCode(201)
  @PolicyRule('cyborg:arq:create')
  async create(@Body() body: unknown, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    const input = readCreateArqsBody(body);
    if (principal.project === null) throw new ForbiddenError('ARQ.PROJECT_REQUIRED', 'Creating accelerator requests needs a token scoped to a project');
    const arqs = await this.commands.execute(new CreateArqsCommand({ ...input, projectId: principal.project }, commandContext(principal, request)));
    return { arqs: arqs.map((arq) => cyborgArq(arqViewOf(arq), baseUrlOf(request))) };
  }

  @Patch()
  @HttpCode(202)
  @PolicyRule('cyborg:arq:update')
  async patch(@Body() body: unknown, @CurrentPrincipal() principal: Principal, @RequestMicroversion() version: Microversion, @Req() request: FastifyRequest) {
    await this.commands.execute(commandOfArqPatch(body, patchCaller(principal, version), commandContext(principal, request)));
  }

  @Patch(':uuid')
  @HttpCode(202)
  @PolicyRule('cyborg:arq:update')
  async patchOne(
    @Param('uuid') uuid: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestMicroversion() version: Microversion,
    @Req() request: FastifyRequest,
  ) {
    await this.commands.execute(commandOfArqPatch(body, patchCaller(principal, version), commandContext(principal, request), uuid));
  }

  @Delete()
  @HttpCode(204)
  @PolicyRule('cyborg:arq:delete')
  async delete(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<void> {
    await this.commands.execute(commandOfArqDelete(readArqDeleteQuery(query), callerOf(principal), commandContext(principal, request)));
  }

  @Delete(':uuid')
  @HttpCode(204)
  @PolicyRule('cyborg:arq:delete')
  async deleteOne(@Param('uuid') uuid: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<void> {
    if (!isUuid(uuid)) throw new ArqNotFoundError(uuid);
    await this.commands.execute(commandOfArqDelete({ arqs: [uuid.toLowerCase()] }, callerOf(principal), commandContext(principal, request)));
  }
}

/** The writes' use cases (libs/allocation …/bind-arqs/arq-patch.http.ts, …/delete-arqs/arq-delete.http.ts) decide who may and which command. */
const callerOf = (principal: Principal): ArqCaller => ({ visibility: visibilityOf(principal), isService: hasRole(principal, 'service') });

const patchCaller = (principal: Principal, version: Microversion): ArqPatchCaller => ({ ...callerOf(principal), microversion: version.minor, isAdmin: isAdmin(principal) });
