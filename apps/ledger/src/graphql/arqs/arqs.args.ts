import { ArgsType, Field } from '@nestjs/graphql';
import { IsOptional, IsUUID } from 'class-validator';
import { WithAsOf } from '../shared/as-of';
import { PageArgs } from '../shared/page.args';

@ArgsType()
export class ArqListArgs extends WithAsOf(PageArgs) {
  @Field(() => String, { nullable: true, description: "Only this instance's requests (Cyborg's `?instance=`)." })
  @IsOptional()
  @IsUUID()
  instanceUuid?: string;
}
