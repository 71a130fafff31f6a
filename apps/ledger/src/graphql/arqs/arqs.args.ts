import { ArgsType, Field } from '@nestjs/graphql';
import { IsOptional, IsUUID } from 'class-validator';
import { PageArgs } from '../shared/page.args';

@ArgsType()
export class ArqListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: "Only this instance's requests (Cyborg's `?instance=`)." })
  @IsOptional()
  @IsUUID()
  instanceUuid?: string;
}
