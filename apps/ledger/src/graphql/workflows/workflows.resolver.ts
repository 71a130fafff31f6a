import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth';
import { WorkflowQueries, type WorkflowStepView, type WorkflowView } from '@ledger/workflows';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { WorkflowConnection, WorkflowObject, WorkflowStepObject } from './workflow.object';
import { WorkflowListArgs } from './workflows.args';

/** Workflow instances, as GET /api/v1/workflows serves them: admins only. */
@Resolver(() => WorkflowObject)
@Allow('admin')
export class WorkflowsResolver {
  constructor(@Inject(WorkflowQueries) private readonly queries: WorkflowQueries) {}

  @Query(() => WorkflowConnection, { description: 'Newest first.', complexity: connectionCost })
  async workflows(@Args() args: WorkflowListArgs): Promise<ConnectionOf<WorkflowView>> {
    const { name, status } = args;
    return toConnection(await this.queries.list({ ...presentArgs({ name, status }), ...pageRequestOf(args) }));
  }

  @Query(() => WorkflowObject, { nullable: true })
  async workflow(@Args('name') name: string, @Args('id') id: string): Promise<WorkflowView | undefined> {
    return this.queries.get(name, id);
  }

  @ResolveField(() => [WorkflowStepObject], { description: 'Each step and compensation, in the order they began.', complexity: 20 })
  async steps(@Parent() workflow: WorkflowView & { steps?: WorkflowStepView[] }): Promise<WorkflowStepView[]> {
    return workflow.steps ?? (await this.queries.get(workflow.name, workflow.id))?.steps ?? [];
  }
}
