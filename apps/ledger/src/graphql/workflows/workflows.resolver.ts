import { Inject } from '@nestjs/common';
import { Args, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth/nest';
import { WorkflowQueries, type WorkflowStepView, type WorkflowView } from '@ledger/workflows';
import { WORKFLOWS_AS_OF } from '../../audit/as-of-views';
import { subjectFilterOf } from '../../workflows/workflow-subject';
import { AS_OF_ARG, GraphqlAsOf } from '../shared/as-of';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { WorkflowConnection, WorkflowObject, WorkflowStepObject } from './workflow.object';
import { WorkflowListArgs } from './workflows.args';

/** Workflow instances, as GET /api/v1/workflows serves them: admins only. */
@Resolver(() => WorkflowObject)
@Allow('admin')
export class WorkflowsResolver {
  constructor(
    @Inject(WorkflowQueries) private readonly queries: WorkflowQueries,
    @Inject(GraphqlAsOf) private readonly asOf: GraphqlAsOf,
  ) {}

  @Query(() => WorkflowConnection, { description: 'Newest first.', complexity: connectionCost })
  async workflows(@Args() args: WorkflowListArgs): Promise<ConnectionOf<WorkflowView>> {
    const { asOf } = args;
    const { name, status, arq } = args;
    const filter = { ...presentArgs({ name, status }), ...subjectFilterOf(arq), ...pageRequestOf(args) };
    const { position, answer } = await this.asOf.root(asOf, WORKFLOWS_AS_OF, this.queries, (queries) => queries.list(filter));
    return toConnection(answer, position);
  }

  @Query(() => WorkflowObject, { nullable: true })
  async workflow(@Args('name') name: string, @Args('id') id: string, @Args(AS_OF_ARG) asOf?: string | null): Promise<WorkflowView | undefined> {
    return this.asOf.node(asOf, WORKFLOWS_AS_OF, this.queries, (queries) => queries.get(name, id));
  }

  @ResolveField(() => [WorkflowStepObject], { description: 'Each step and compensation, in the order they began.', complexity: 20 })
  async steps(@Parent() workflow: WorkflowView & { steps?: WorkflowStepView[] }): Promise<WorkflowStepView[]> {
    if (workflow.steps) return workflow.steps;
    const { answer } = await this.asOf.under(workflow, WORKFLOWS_AS_OF, this.queries, (queries) => queries.get(workflow.name, workflow.id));
    return answer?.steps ?? [];
  }
}
