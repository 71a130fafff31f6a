import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from '../shared/connection';
import { JsonScalar } from '../shared/json.scalar';

@ObjectType('WorkflowStep', { description: 'One step or compensation of a workflow instance (docs/workflows.md).' })
export class WorkflowStepObject {
  @Field() step!: string;
  @Field({ description: '`do` or `compensate`.' }) phase!: string;
  @Field() status!: string;
  @Field(() => Int) attempts!: number;
  @Field() startedAt!: string;
  @Field(() => String, { nullable: true }) sentAt!: string | null;
  @Field(() => String, { nullable: true }) endedAt!: string | null;
  @Field(() => Int, { nullable: true }) durationMs!: number | null;
  @Field(() => JsonScalar, { nullable: true }) evidence!: unknown;
  @Field(() => String, { nullable: true, description: 'Why the latest attempt failed: `CODE: message` (a timeout: `timed out after … ms`).' }) reason!: string | null;
  @Field(() => String, { nullable: true, description: 'The code of why the latest attempt failed (`JOB.AGENT_UNAVAILABLE`, `WORKFLOW.STEP_TIMED_OUT`).' }) code!: string | null;
}

@ObjectType('WorkflowUnresolved', { description: 'A compensation given up, and why.' })
export class WorkflowUnresolvedObject {
  @Field() step!: string;
  @Field({ description: 'The code of why it was given up.' }) code!: string;
  @Field({ description: '`CODE: message`.' }) reason!: string;
}

@ObjectType('Workflow', { description: 'A workflow instance: the bind, the ten-step saga, a host provision.' })
export class WorkflowObject {
  @Field() name!: string;
  @Field() id!: string;
  @Field(() => String, { nullable: true, description: 'The stream it works on: `arq-<uuid>` for a bind, `host-<hostname>` for a provision; null when its start recorded none.' })
  subject!: string | null;
  @Field({ description: '`running`, `completed`, `compensated` or `failed`.' }) status!: string;
  @Field(() => String, { nullable: true }) currentStep!: string | null;
  @Field(() => String, { nullable: true }) currentPhase!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => String, { nullable: true, description: 'The code of what stopped it (the step given up, `WORKFLOW.CANCELLED`); null while it runs or once completed.' })
  code!: string | null;
  @Field(() => [WorkflowUnresolvedObject]) unresolved!: WorkflowUnresolvedObject[];
  @Field() startedAt!: string;
  @Field() updatedAt!: string;
  @Field(() => String, { nullable: true }) endedAt!: string | null;
}

@ObjectType()
export class WorkflowConnection extends Connection(WorkflowObject, 'Workflow') {}
