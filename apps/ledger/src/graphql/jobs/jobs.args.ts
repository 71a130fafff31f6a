import { ArgsType, Field } from '@nestjs/graphql';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageArgs } from '../shared/page.args';

@ArgsType()
export class JobListArgs extends PageArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  hostname?: string;

  @Field(() => String, { nullable: true, description: '`requested`, `dispatched`, `completed` or `failed`.' })
  @IsOptional()
  @IsIn(['requested', 'dispatched', 'completed', 'failed'])
  state?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  kind?: string;
}
