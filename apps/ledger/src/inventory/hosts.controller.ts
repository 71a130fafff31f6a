import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth/nest';
import type { FastifyReply } from 'fastify';
import { InventoryQueries } from '@ledger/projections/inventory';
import { AsOfQuery } from '../audit/as-of.query';
import { AsOfReads, asOfOrMinPosition } from '../audit/as-of-reads.service';
import { INVENTORY_AS_OF } from '../audit/as-of-views';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { hostNotFound } from './inventory-not-found';
import { HostListQuery } from './inventory.query.dto';

@ApiTags('inventory')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/hosts')
@Allow('admin', 'manager')
export class HostsController {
  constructor(
    @Inject(InventoryQueries) private readonly queries: InventoryQueries,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Inject(AsOfReads) private readonly asOf: AsOfReads,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Hosts that have reported, by name' })
  async list(@Query() query: HostListQuery, @Res({ passthrough: true }) reply: FastifyReply, @Headers(MIN_POSITION_HEADER) minPosition?: string) {
    return this.asOf.read(asOfOrMinPosition(this.consistency, minPosition, query.asOf, reply), INVENTORY_AS_OF, this.queries, (queries) => queries.listHosts(query));
  }

  @Get(':hostname')
  @ApiOperation({ summary: 'One host' })
  async get(
    @Param('hostname') hostname: string,
    @Query() query: AsOfQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers(MIN_POSITION_HEADER) minPosition?: string,
  ) {
    const host = await this.asOf.read(asOfOrMinPosition(this.consistency, minPosition, query.asOf, reply), INVENTORY_AS_OF, this.queries, (queries) => queries.getHost(hostname));
    if (!host) throw hostNotFound(hostname);
    return host;
  }
}
