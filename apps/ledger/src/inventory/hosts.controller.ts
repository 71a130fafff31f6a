import { Controller, Get, Headers, Inject, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth';
import { InventoryQueries } from '@ledger/projections/inventory';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { hostNotFound } from './inventory-not-found';
import { PageQuery } from './inventory.query.dto';

@ApiTags('inventory')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/hosts')
@Allow('admin', 'manager')
export class HostsController {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Hosts that have reported, by name' })
  async list(@Query() query: PageQuery, @Headers(MIN_POSITION_HEADER) minPosition?: string) {
    await this.consistency.awaitHeader(minPosition);
    return this.queries.listHosts(query);
  }

  @Get(':hostname')
  @ApiOperation({ summary: 'One host' })
  async get(@Param('hostname') hostname: string, @Headers(MIN_POSITION_HEADER) minPosition?: string) {
    await this.consistency.awaitHeader(minPosition);
    const host = await this.queries.getHost(hostname);
    if (!host) throw hostNotFound(hostname);
    return host;
  }
}
