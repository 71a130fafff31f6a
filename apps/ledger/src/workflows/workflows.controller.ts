import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import type { FastifyReply } from 'fastify';
import type { ProcessorStatus } from '@ledger/processing';
import { type OperatorRequestResult, WorkflowNotFoundError, WorkflowQueries, type WorkflowPage, type WorkflowRuntime, type WorkflowStepView, type WorkflowView } from '@ledger/workflows';
import { AsOfQuery } from '../audit/as-of.query';
import { AsOfReads, asOfOrMinPosition } from '../audit/as-of-reads.service';
import { WORKFLOWS_AS_OF } from '../audit/as-of-views';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { WORKFLOW_RUNTIME } from '../infrastructure/tokens';
import { subjectFilterOf } from './workflow-subject';
import { CancelWorkflowBody, WorkflowListQuery } from './workflows.request.dto';

const DEFAULT_CANCEL_REASON = 'cancelled by an operator';

/**
 * The operator's view of the workflows (docs/workflows.md): instances with
 * their current step, each step's history and compensations, and the two
 * ways to steer one — cancel (it compensates) and retry (a failed one, from
 * where it stopped). Cancel and retry answer 202 with the position of the
 * recorded request: read with X-Ledger-Min-Position to see its effect.
 */
@ApiTags('workflows')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/workflows')
export class WorkflowsController {
  constructor(
    @Inject(WorkflowQueries) private readonly queries: WorkflowQueries,
    @Inject(WORKFLOW_RUNTIME) private readonly runtime: WorkflowRuntime,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Inject(AsOfReads) private readonly asOf: AsOfReads,
  ) {}

  @Get()
  @Allow('admin')
  @ApiOperation({ summary: 'Workflow instances, newest first, by name, status and the accelerator request they work on' })
  async list(@Query() query: WorkflowListQuery, @Res({ passthrough: true }) reply: FastifyReply, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<WorkflowPage> {
    const { asOf, arq, ...filter } = query;
    const read = (queries: WorkflowQueries) => queries.list({ ...filter, ...subjectFilterOf(arq) });
    return this.asOf.read(asOfOrMinPosition(this.consistency, minPosition, asOf, reply), WORKFLOWS_AS_OF, this.queries, read);
  }

  @Get('runtime')
  @Allow('admin')
  @ApiOperation({ summary: "Every workflow's runner in this process: state, position, lag, failed sends and the last error" })
  async status(): Promise<{ items: ProcessorStatus[] }> {
    return { items: await this.runtime.status() };
  }

  @Get(':name/:id')
  @Allow('admin')
  @ApiOperation({ summary: 'One instance: status, current step, and each step and compensation with attempts, times, evidence or reason' })
  async get(
    @Param('name') name: string,
    @Param('id') id: string,
    @Query() query: AsOfQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers(MIN_POSITION_HEADER) minPosition?: string,
  ): Promise<WorkflowView & { steps: WorkflowStepView[] }> {
    const found = await this.asOf.read(asOfOrMinPosition(this.consistency, minPosition, query.asOf, reply), WORKFLOWS_AS_OF, this.queries, (queries) => queries.get(name, id));
    if (!found) throw new WorkflowNotFoundError(name, id);
    return found;
  }

  @Post(':name/:id/cancel')
  @HttpCode(202)
  @Allow('admin')
  @ApiOperation({
    summary: 'Cancel a running instance: the action in flight ends, then the steps done are compensated',
    description: '404 WORKFLOW.NOT_FOUND; 409 WORKFLOW.BAD_STATE when the instance is not running.',
  })
  cancel(
    @Param('name') name: string,
    @Param('id') id: string,
    @Body() body: CancelWorkflowBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<OperatorRequestResult> {
    return this.runtime.cancel(name, id, { by: principal.user, reason: body.reason ?? DEFAULT_CANCEL_REASON });
  }

  @Post(':name/:id/retry')
  @HttpCode(202)
  @Allow('admin')
  @ApiOperation({
    summary: 'Retry a failed instance from where it stopped (the compensations it gave up)',
    description: '404 WORKFLOW.NOT_FOUND; 409 WORKFLOW.BAD_STATE when the instance is not failed.',
  })
  retry(@Param('name') name: string, @Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<OperatorRequestResult> {
    return this.runtime.retry(name, id, { by: principal.user });
  }
}
