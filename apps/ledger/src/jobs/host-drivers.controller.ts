import { Controller, Get, Headers, Inject, Param } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth/nest';
import { InventoryQueries } from '@ledger/projections/inventory';
import { type HostDriverView, JobQueries } from '@ledger/projections/jobs';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { hostNotFound } from '../inventory/inventory-not-found';
import { type PendingDriverJob, pendingDriverJobs } from './pending-driver-jobs';

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
  @ApiOperation({
    summary: 'Drivers the host\'s driver jobs installed (and installs that failed), from the driver facts',
    description: '`pending` lists the host\'s driver jobs not finished yet (requested or dispatched): an empty `drivers` with pending jobs means "not done yet".',
  })
  async list(
    @Param('hostname') hostname: string,
    @Headers(MIN_POSITION_HEADER) minPosition?: string,
  ): Promise<{ hostname: string; drivers: HostDriverView[]; pending: PendingDriverJob[] }> {
    await this.consistency.awaitHeader(minPosition);
    if (!(await this.inventory.getHost(hostname))) throw hostNotFound(hostname);
    const [drivers, pending] = await Promise.all([this.queries.listHostDrivers(hostname), pendingDriverJobs(this.queries, hostname)]);
    return { hostname, drivers, pending };
  }
}
