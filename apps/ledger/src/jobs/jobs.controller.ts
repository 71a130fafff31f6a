import { Body, Controller, Get, Headers, HttpCode, Inject, Logger, Optional, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { isAdmin, type Principal, wrongHost } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { jobNotFound, RecordJobResultCommand } from '@ledger/jobs';
import { JobReader } from '@ledger/jobs/nest';
import { type JobView, JobQueries, type Page } from '@ledger/projections/jobs';
import type { WorkflowRuntime } from '@ledger/workflows';
import { commandContext } from '../http/command-context';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { WORKFLOW_RUNTIME } from '../infrastructure/tokens';
import { pathUuid } from '../inventory/inventory-not-found';
import { JobListQuery, JobResultBody } from './jobs.request.dto';

/** The workflow takes a result to its end even if the agent hangs up: its client going away is no reason to stop. */
const NEVER_ABORTED = new AbortController().signal;

@ApiTags('jobs')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/jobs')
export class JobsController {
  private readonly logger = new Logger('Jobs');

  constructor(
    @Inject(JobQueries) private readonly queries: JobQueries,
    @Inject(JobReader) private readonly reader: JobReader,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Optional() @Inject(WORKFLOW_RUNTIME) private readonly workflows: WorkflowRuntime | null,
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
    if (result.position !== null) await this.advanceWorkflowsOn(result.position, result.appended);
    return { jobId: id, state: result.state.status, position: result.position };
  }

  /**
   * The workflow that asked for the job takes its result in this request
   * (a bind claims its carved partition), so the agent's next call (its
   * fresh report after a carve) finds that done rather than competing with
   * it. The result is recorded whatever happens here: the workflow's own
   * loop takes it from the log otherwise.
   */
  private async advanceWorkflowsOn(position: number, appended: number): Promise<void> {
    await this.workflows?.advanceOn({ last: position, count: appended }, NEVER_ABORTED).catch((error: unknown) => {
      this.logger.warn(`the workflows did not take the job result at position ${position} at once (${(error as Error)?.message ?? error}); their loops will`);
    });
  }
}
