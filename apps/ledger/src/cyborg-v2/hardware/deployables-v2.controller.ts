import { Body, Get, HttpCode, Inject, Param, Patch, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { CurrentPrincipal, PolicyRule } from '@ledger/auth/nest';
import { RequestProgramJobCommand } from '@ledger/jobs';
import { type AttributeView, type DeployableView, InventoryQueries, inventoryProjection } from '@ledger/projections/inventory';
import { commandContext } from '../../http/command-context';
import { ConsistencyService } from '../../http/consistency.service';
import { deployableNotFound, pathUuid } from '../../inventory/inventory-not-found';
import { baseUrlOf } from '../cyborg-representation';
import { CyborgV2Controller } from '../cyborg-v2.controller';
import { imageUuidOfProgramPatch } from './deployable-program.request';
import { cyborgDeployable } from './hardware-v2.representation';
import { cyborgSearch, type RawQuery, single } from './hardware-v2.query';

const DEPLOYABLE_SORT_KEYS = {
  uuid: 'uuid',
  name: 'name',
  num_accelerators: 'count',
  rp_uuid: 'rpUuid',
  driver_name: 'driverName',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
} as const;

/** Cyborg's deployables (CYBORG-V2.md §1.3): one Placement resource provider each. */
@CyborgV2Controller('deployables')
export class DeployablesV2Controller {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  /** `?name=` matches exactly, plus limit / sort_key / sort_dir. */
  @Get()
  @PolicyRule('cyborg:deployable:get_all')
  async list(@Query() query: RawQuery, @Req() request: FastifyRequest) {
    const search = cyborgSearch(query, DEPLOYABLE_SORT_KEYS);
    await this.consistency.awaitFresh([inventoryProjection.name]);
    const deployables = await this.queries.searchDeployables({ ...search, name: single(query, 'name') });
    return { deployables: await this.represent(deployables, baseUrlOf(request)) };
  }

  @Get(':uuid')
  @PolicyRule('cyborg:deployable:get_one')
  async get(@Param('uuid') uuid: string, @Req() request: FastifyRequest) {
    await this.consistency.awaitFresh([inventoryProjection.name]);
    const [deployable] = await this.represent([await this.deployable(uuid)], baseUrlOf(request));
    return deployable;
  }

  /**
   * Cyborg programs synchronously and answers 200. Here the host's agent
   * does it: the request is a `program` job (`jobs.JobRequested`), answered
   * 202 with the job's address in `Location` (`GET /api/v1/jobs/{jobId}`).
   */
  @Patch(':uuid/program')
  @HttpCode(202)
  @PolicyRule('cyborg:deployable:program')
  async program(
    @Param('uuid') uuid: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const imageUuid = imageUuidOfProgramPatch(body);
    await this.consistency.awaitFresh([inventoryProjection.name]);
    const deployable = await this.deployable(uuid);
    const { jobId } = await this.commands.execute(
      new RequestProgramJobCommand(
        { hostname: deployable.hostname, deviceUuid: deployable.deviceUuid, deployableUuid: deployable.uuid, imageUuid },
        commandContext(principal, request),
      ),
    );
    reply.header('Location', `/api/v1/jobs/${jobId}`);
    const [represented] = await this.represent([deployable], baseUrlOf(request));
    return represented;
  }

  private async deployable(uuid: string): Promise<DeployableView> {
    const deployable = await this.queries.getDeployable(pathUuid(uuid));
    if (!deployable) throw deployableNotFound(uuid);
    return deployable;
  }

  private async represent(deployables: readonly DeployableView[], baseUrl: string) {
    const attributes = new Map<string, AttributeView[]>(deployables.map((deployable) => [deployable.uuid, []]));
    for (const attribute of await this.queries.listAttributes({ deployableUuids: deployables.map((deployable) => deployable.uuid) })) {
      attributes.get(attribute.deployableUuid)?.push(attribute);
    }
    return deployables.map((deployable) => cyborgDeployable(deployable, attributes.get(deployable.uuid) ?? [], baseUrl));
  }
}
