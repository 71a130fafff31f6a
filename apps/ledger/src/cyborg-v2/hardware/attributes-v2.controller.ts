import { Body, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import { CurrentPrincipal, PolicyRule } from '@ledger/auth/nest';
import { AttributeErrorCodes, CreateAttributeCommand, DeleteAttributeCommand } from '@ledger/inventory';
import { ConflictError, NotFoundError, ValidationError } from '@ledger/kernel';
import { type AttributeView, InventoryQueries, inventoryProjection } from '@ledger/projections/inventory';
import { commandContext } from '../../http/command-context';
import { ConsistencyService } from '../../http/consistency.service';
import { pathUuid } from '../../inventory/inventory-not-found';
import { baseUrlOf } from '../cyborg-representation';
import { CyborgV2Controller } from '../cyborg-v2.controller';
import { CreateAttributeRequest } from './attribute.request.dto';
import { cyborgAttribute } from './hardware-v2.representation';
import { positiveInteger, type RawQuery, single } from './hardware-v2.query';

/**
 * Cyborg's attributes (CYBORG-V2.md §1.3): those a report gives a
 * deployable (`rc`, `trait<N>`), which change only with the report, and
 * those an operator sets, which live on their own streams.
 */
@CyborgV2Controller('attributes')
export class AttributesV2Controller {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Get()
  @PolicyRule('cyborg:attribute:get_all')
  async list(@Query() query: RawQuery, @Req() request: FastifyRequest) {
    const filter = { deployableId: positiveInteger(query, 'deployable_id'), key: single(query, 'key') };
    await this.consistency.awaitFresh([inventoryProjection.name]);
    const attributes = await this.queries.listAttributes(filter);
    return { attributes: attributes.map((attribute) => cyborgAttribute(attribute, baseUrlOf(request))) };
  }

  @Get(':uuid')
  @PolicyRule('cyborg:attribute:get_one')
  async get(@Param('uuid') uuid: string, @Req() request: FastifyRequest) {
    await this.consistency.awaitFresh([inventoryProjection.name]);
    return cyborgAttribute(await this.attribute(uuid), baseUrlOf(request));
  }

  /** An unknown `deployable_id` is a 400: the path exists, the body names nothing. */
  @Post()
  @HttpCode(201)
  @PolicyRule('cyborg:attribute:create')
  async create(@Body() body: CreateAttributeRequest, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    await this.consistency.awaitFresh([inventoryProjection.name]);
    const deployable = await this.queries.findDeployableByNumericId(body.deployable_id);
    if (!deployable) {
      throw new ValidationError(AttributeErrorCodes.UNKNOWN_DEPLOYABLE, `no deployable has id ${body.deployable_id}`, {
        deployableId: body.deployable_id,
      });
    }
    const { attribute } = await this.commands.execute(
      new CreateAttributeCommand(
        { hostname: deployable.hostname, deviceUuid: deployable.deviceUuid, deployableUuid: deployable.uuid, key: body.key, value: body.value },
        commandContext(principal, request),
      ),
    );
    const { createdAt } = attribute;
    return cyborgAttribute({ ...attribute, deployableId: body.deployable_id, updatedAt: createdAt }, baseUrlOf(request));
  }

  /** Discovered attributes change only with the agent's report: deleting one is a 409. */
  @Delete(':uuid')
  @HttpCode(204)
  @PolicyRule('cyborg:attribute:delete')
  async delete(@Param('uuid') uuid: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<void> {
    await this.consistency.awaitFresh([inventoryProjection.name]);
    const attribute = await this.attribute(uuid);
    if (attribute.origin === 'discovered') {
      throw new ConflictError(AttributeErrorCodes.DISCOVERED, `attribute ${attribute.key} is discovered from the agent's report`, {
        uuid: attribute.uuid,
        key: attribute.key,
      });
    }
    await this.commands.execute(new DeleteAttributeCommand(attribute.uuid, commandContext(principal, request)));
  }

  private async attribute(uuid: string): Promise<AttributeView> {
    const attribute = await this.queries.getAttribute(pathUuid(uuid));
    if (!attribute) throw new NotFoundError(AttributeErrorCodes.NOT_FOUND, `attribute ${uuid} does not exist`, { uuid });
    return attribute;
  }
}
