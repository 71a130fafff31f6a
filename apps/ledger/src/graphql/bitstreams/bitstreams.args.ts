import { ArgsType, Field } from '@nestjs/graphql';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageArgs } from '../shared/page.args';

@ArgsType()
export class BitstreamListArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true, description: 'Leave out retired images.' })
  @IsOptional()
  @IsBoolean()
  live?: boolean;

  @Field(() => String, { nullable: true, description: 'The function id (with or without dashes).' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  functionId?: string;
}
