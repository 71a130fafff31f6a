import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import type { FastifyReply } from 'fastify';
import { InventoryQueries } from '@ledger/projections/inventory';
import { AsOfQuery } from '../audit/as-of.query';
import { AsOfReads, asOfOrMinPosition } from '../audit/as-of-reads.service';
import { INVENTORY_AS_OF } from '../audit/as-of-views';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { attachHandlesSeenBy } from './attach-handles-seen-by';
import { deployableNotFound, pathUuid } from './inventory-not-found';
import { DeployableListQuery } from './inventory.query.dto';

@ApiTags('inventory')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/deployables')
@Allow('admin', 'manager')
export class DeployablesController {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Inject(AsOfReads) private readonly asOf: AsOfReads,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Deployables (one Placement resource provider each), filtered by host, device and resource class' })
  async list(@Query() query: DeployableListQuery, @Res({ passthrough: true }) reply: FastifyReply, @Headers(MIN_POSITION_HEADER) minPosition?: string) {
    const filter = { ...query, deviceUuid: query.device?.toLowerCase() };
    return this.asOf.read(asOfOrMinPosition(this.consistency, minPosition, query.asOf, reply), INVENTORY_AS_OF, this.queries, (queries) => queries.listDeployables(filter));
  }

  @Get(':uuid')
  @ApiOperation({ summary: 'One deployable with its attach handles (the request holding a handle, claimedBy, is shown to admins only)' })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('uuid') uuid: string,
    @Query() query: AsOfQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers(MIN_POSITION_HEADER) minPosition?: string,
  ) {
    const id = pathUuid(uuid);
    const found = await this.asOf.read(asOfOrMinPosition(this.consistency, minPosition, query.asOf, reply), INVENTORY_AS_OF, this.queries, async (queries) => {
      const deployable = await queries.getDeployable(id);
      return deployable && { ...deployable, attachHandles: attachHandlesSeenBy(principal, await queries.listAttachHandles(id)) };
    });
    if (!found) throw deployableNotFound(uuid);
    return found;
  }
}
