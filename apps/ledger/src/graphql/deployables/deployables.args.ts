import { ArgsType, Field } from '@nestjs/graphql';
import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { WithAsOf } from '../shared/as-of';
import { PageArgs } from '../shared/page.args';

@ArgsType()
export class DeployableFilterArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'FPGA, PGPU, VGPU or CUSTOM_*.' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  resourceClass?: string;
}

@ArgsType()
export class DeployableListArgs extends WithAsOf(DeployableFilterArgs) {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  hostname?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsUUID()
  deviceUuid?: string;
}
