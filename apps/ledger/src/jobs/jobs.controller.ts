import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { isAdmin, type Principal, wrongHost } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { jobNotFound, RecordJobResultCommand } from '@ledger/jobs';
import { JobReader } from '@ledger/jobs/nest';
import { type JobView, JobQueries, type Page } from '@ledger/projections/jobs';
import { commandContext } from '../http/command-context';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { pathUuid } from '../inventory/inventory-not-found';
import { JobListQuery, JobResultBody } from './jobs.request.dto';

@ApiTags('jobs')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/jobs')
export class JobsController {
  constructor(
    @Inject(JobQueries) private readonly queries: JobQueries,
    @Inject(JobReader) private readonly reader: JobReader,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Get()
  @Allow('admin', 'manager')
  @ApiOperation({ summary: 'Jobs, newest first, by host, state and kind' })
  async list(@Query() query: JobListQuery, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<Page<JobView>> {
    await this.consistency.awaitHeader(minPosition);
    return this.queries.listJobs(query);
  }

  @Get(':jobId')
  @Allow('admin', 'manager')
  @ApiOperation({ summary: 'One job: state, attempt, deadline, and the evidence once finished' })
  async get(@Param('jobId') jobId: string, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<JobView> {
    const id = pathUuid(jobId, 'jobId');
    await this.consistency.awaitHeader(minPosition);
    const job = await this.queries.getJob(id);
    if (!job) throw jobNotFound(id);
    return job;
  }

  @Post(':jobId/result')
  @HttpCode(200)
  @Allow('agent', 'admin')
  @ApiOperation({
    summary: "The agent's result of a job",
    description: 'Records jobs.JobCompleted or jobs.JobFailed with the evidence. A job finished already (also by timing out) answers 409 JOB.ALREADY_FINISHED.',
  })
  async result(
    @Param('jobId') jobId: string,
    @Body() body: JobResultBody,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<{ jobId: string; state: string; position: number | null }> {
    const id = pathUuid(jobId, 'jobId');
    // Read from the job's stream, not the projection: the check must hold for the job as it is now.
    const job = await this.reader.read(id);
    if (job.status === 'none') throw jobNotFound(id);
    if (!isAdmin(principal) && principal.host !== job.hostname) throw wrongHost(principal.host, job.hostname);
    const result = await this.commands.execute(new RecordJobResultCommand({ jobId: id, ...body }, commandContext(principal, request)));
    return { jobId: id, state: result.state.status, position: result.position };
  }
}
