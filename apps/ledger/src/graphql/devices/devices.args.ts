import { ArgsType, Field } from '@nestjs/graphql';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { WithAsOf } from '../shared/as-of';
import { PageArgs } from '../shared/page.args';

@ArgsType()
export class DeviceFilterArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Device type (GPU, FPGA, …).' })
  @IsOptional()
  @IsIn(['GPU', 'FPGA', 'DPU', 'NIC', 'QAT', 'NPU'])
  type?: string;

  @Field(() => String, { nullable: true, description: 'PCI vendor id, with or without 0x (case-insensitive).' })
  @IsOptional()
  @Matches(/^(0x)?[0-9a-fA-F]{4}$/, { message: 'vendor must be a 4-digit hex PCI vendor id' })
  vendor?: string;

  @Field(() => String, { nullable: true, description: '`enabled` or `maintaining`.' })
  @IsOptional()
  @IsIn(['enabled', 'maintaining'])
  status?: 'enabled' | 'maintaining';
}

@ArgsType()
export class DeviceListArgs extends WithAsOf(DeviceFilterArgs) {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  hostname?: string;
}
