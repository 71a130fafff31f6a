import { ArgsType, Field } from '@nestjs/graphql';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageArgs } from '../shared/page.args';

@ArgsType()
export class DeviceProfileListArgs extends PageArgs {
  @Field(() => [String], { nullable: true, description: "Only profiles with one of these names (Cyborg's `?name=a,b`)." })
  @IsOptional()
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  names?: string[];
}
