import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from '../shared/connection';
import { JsonScalar } from '../shared/json.scalar';

@ObjectType('Device', { description: 'An accelerator a host reports (GPU, FPGA, DPU, NIC, QAT, NPU).' })
export class DeviceObject {
  @Field() uuid!: string;
  @Field() hostname!: string;
  @Field() type!: string;
  @Field() vendorId!: string;
  @Field() productId!: string;
  @Field(() => String, { nullable: true }) subsystemVendorId!: string | null;
  @Field(() => String, { nullable: true }) subsystemProductId!: string | null;
  @Field() model!: string;
  @Field() pciAddress!: string;
  @Field(() => JsonScalar) boardInfo!: Record<string, string>;
  @Field(() => String, { nullable: true }) vendorBoardInfo!: string | null;
  @Field(() => String, { nullable: true }) driver!: string | null;
  @Field(() => Int, { nullable: true }) numaNode!: number | null;
  @Field(() => JsonScalar, { nullable: true }) capacity!: Record<string, number> | null;
  @Field({ description: '`enabled` or `maintaining`.' }) status!: string;
  @Field(() => String, { nullable: true }) disabledReason!: string | null;
  @Field({ description: '`ok`, `degraded` or `failed`.' }) health!: string;
  @Field(() => String, { nullable: true }) healthReason!: string | null;
  @Field(() => String, { nullable: true }) shellInterfaceId!: string | null;
  @Field(() => Int, { nullable: true }) configuredVfs!: number | null;
  @Field() createdAt!: string;
  @Field() updatedAt!: string;
}

@ObjectType()
export class DeviceConnection extends Connection(DeviceObject, 'Device') {}
