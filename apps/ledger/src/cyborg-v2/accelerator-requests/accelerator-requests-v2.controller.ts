import { Body, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ArqErrorCodes,
  ArqInvalidError,
  ArqNotFoundError,
  BindArqsCommand,
  CreateArqsCommand,
  DeleteArqsCommand,
  DeleteInstanceArqsCommand,
  isResolved,
  parseArqPatch,
  UnbindArqsCommand,
} from '@ledger/allocation';
import { hasRole, isAdmin, type Principal } from '@ledger/auth';
import { CurrentPrincipal, PolicyRule } from '@ledger/auth/nest';
import { ForbiddenError, isUuid, LedgerError } from '@ledger/kernel';
import { arqProjection, ArqQueries } from '@ledger/projections/arqs';
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
import { readCreateArqsBody, readDeleteQuery, readListQuery } from './arq.requests';

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
    const arqs = await this.asOf.read({ asOf, reply, fresh: () => this.consistency.awaitFresh([arqProjection.name]) }, ARQS_AS_OF, this.arqs, (arqs) =>
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
    const fresh = () => this.consistency.awaitFresh([arqProjection.name]);
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
    await this.applyPatch(body, principal, version, request);
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
    const keys = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    if (keys.length !== 1 || keys[0].toLowerCase() !== uuid.toLowerCase()) {
      throw new ArqInvalidError('body', `The patch sent to /v2/accelerator_requests/${uuid} must name that request, and only it`);
    }
    await this.applyPatch(body, principal, version, request);
  }

  @Delete()
  @HttpCode(204)
  @PolicyRule('cyborg:arq:delete')
  async delete(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<void> {
    const target = readDeleteQuery(query);
    const context = commandContext(principal, request);
    if ('instanceUuid' in target) {
      if (!hasRole(principal, 'service')) throw serviceRoleRequired('Deleting by instance');
      await this.commands.execute(new DeleteInstanceArqsCommand({ instanceUuid: target.instanceUuid, visibility: visibilityOf(principal) }, context));
      return;
    }
    await this.deleteArqs(target.arqs, principal, request);
  }

  @Delete(':uuid')
  @HttpCode(204)
  @PolicyRule('cyborg:arq:delete')
  async deleteOne(@Param('uuid') uuid: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<void> {
    if (!isUuid(uuid)) throw new ArqNotFoundError(uuid);
    await this.deleteArqs([uuid.toLowerCase()], principal, request);
  }

  private async deleteArqs(uuids: string[], principal: Principal, request: FastifyRequest): Promise<void> {
    const input = { uuids, visibility: visibilityOf(principal), mayDeleteBound: hasRole(principal, 'service') };
    await this.commands.execute(new DeleteArqsCommand(input, commandContext(principal, request)));
  }

  private async applyPatch(body: unknown, principal: Principal, version: Microversion, request: FastifyRequest): Promise<void> {
    if (!hasRole(principal, 'service')) throw serviceRoleRequired('Binding and unbinding');
    const patch = parseArqPatch(body, { microversion: version.minor, isAdmin: isAdmin(principal) });
    const visibility = visibilityOf(principal);
    const context = commandContext(principal, request);
    if (patch.kind === 'bind') await this.commands.execute(new BindArqsCommand({ binds: patch.binds, visibility }, context));
    else await this.commands.execute(new UnbindArqsCommand({ uuids: patch.uuids, visibility }, context));
  }
}

const serviceRoleRequired = (what: string): LedgerError =>
  new ForbiddenError('AUTH.ROLE_REQUIRED', `${what} needs the service role (Nova sends it in X-Service-Token)`, { roles: ['service'] });
