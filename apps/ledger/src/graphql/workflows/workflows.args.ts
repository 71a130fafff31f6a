import { ArgsType, Field } from '@nestjs/graphql';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import type { WorkflowStatus } from '@ledger/workflows';
import { WithAsOf } from '../shared/as-of';
import { PageArgs } from '../shared/page.args';

@ArgsType()
export class WorkflowListArgs extends WithAsOf(PageArgs) {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @Field(() => String, { nullable: true, description: '`running`, `completed`, `compensated` or `failed`.' })
  @IsOptional()
  @IsIn(['running', 'completed', 'compensated', 'failed'])
  status?: WorkflowStatus;

  @Field(() => String, { nullable: true, description: 'Only the instances that work on this accelerator request (its binds).' })
  @IsOptional()
  @IsUUID()
  arq?: string;
}
