import { Controller, Get, Headers, Inject, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow, CurrentPrincipal, type Principal } from '@ledger/auth';
import { InventoryQueries } from '@ledger/projections/inventory';
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
  ) {}

  @Get()
  @ApiOperation({ summary: 'Deployables (one Placement resource provider each), filtered by host, device and resource class' })
  async list(@Query() query: DeployableListQuery, @Headers(MIN_POSITION_HEADER) minPosition?: string) {
    await this.consistency.awaitHeader(minPosition);
    return this.queries.listDeployables({ ...query, deviceUuid: query.device?.toLowerCase() });
  }

  @Get(':uuid')
  @ApiOperation({ summary: 'One deployable with its attach handles (the request holding a handle, claimedBy, is shown to admins only)' })
  async get(@CurrentPrincipal() principal: Principal, @Param('uuid') uuid: string, @Headers(MIN_POSITION_HEADER) minPosition?: string) {
    await this.consistency.awaitHeader(minPosition);
    const id = pathUuid(uuid);
    const deployable = await this.queries.getDeployable(id);
    if (!deployable) throw deployableNotFound(uuid);
    return { ...deployable, attachHandles: attachHandlesSeenBy(principal, await this.queries.listAttachHandles(id)) };
  }
}
