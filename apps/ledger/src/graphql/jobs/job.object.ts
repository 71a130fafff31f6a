import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from '../shared/connection';
import { JsonScalar } from '../shared/json.scalar';

@ObjectType('Job', { description: 'Work the ledger asked of a host agent (program a region, set VFs, install a driver…).' })
export class JobObject {
  @Field() jobId!: string;
  @Field() hostname!: string;
  @Field() kind!: string;
  @Field(() => JsonScalar) params!: Record<string, unknown>;
  @Field(() => Int) timeoutSeconds!: number;
  @Field({ description: '`requested`, `dispatched`, `completed` or `failed`.' }) state!: string;
  @Field(() => Int) attempt!: number;
  @Field() requestedAt!: string;
  @Field() deadline!: string;
  @Field(() => String, { nullable: true }) dispatchedAt!: string | null;
  @Field(() => String, { nullable: true }) finishedAt!: string | null;
  @Field(() => String, { nullable: true }) code!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => JsonScalar, { nullable: true }) evidence!: Record<string, unknown> | null;
  @Field(() => Int, { description: 'Global position of the JobRequested.' }) position!: number;
}

@ObjectType()
export class JobConnection extends Connection(JobObject, 'Job') {}
