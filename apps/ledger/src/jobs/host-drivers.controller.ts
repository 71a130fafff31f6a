import { Controller, Get, Headers, Inject, Param } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth';
import { InventoryQueries } from '@ledger/projections/inventory';
import { type HostDriverView, JobQueries } from '@ledger/projections/jobs';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { hostNotFound } from '../inventory/inventory-not-found';

@ApiTags('jobs')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/hosts')
export class HostDriversController {
  constructor(
    @Inject(JobQueries) private readonly queries: JobQueries,
    @Inject(InventoryQueries) private readonly inventory: InventoryQueries,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Get(':hostname/drivers')
  @Allow('admin', 'manager')
  @ApiOperation({ summary: 'Drivers the host\'s driver jobs installed (and installs that failed), from the driver facts' })
  async list(@Param('hostname') hostname: string, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<{ hostname: string; drivers: HostDriverView[] }> {
    await this.consistency.awaitHeader(minPosition);
    if (!(await this.inventory.getHost(hostname))) throw hostNotFound(hostname);
    return { hostname, drivers: await this.queries.listHostDrivers(hostname) };
  }
}
