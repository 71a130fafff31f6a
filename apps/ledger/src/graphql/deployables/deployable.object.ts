import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from '../shared/connection';

@ObjectType('Deployable', { description: 'A schedulable part of a device: one Placement resource provider.' })
export class DeployableObject {
  @Field() uuid!: string;
  @Field() deviceUuid!: string;
  @Field() hostname!: string;
  @Field() name!: string;
  @Field() rpUuid!: string;
  @Field() resourceClass!: string;
  @Field(() => Int) count!: number;
  @Field(() => [String]) traits!: string[];
  @Field(() => String, { nullable: true }) driverName!: string | null;
  @Field(() => String, { nullable: true, description: 'The registered bitstream the region was last loaded with.' }) bitstreamId!: string | null;
  @Field(() => String, { nullable: true }) functionId!: string | null;
  @Field(() => String, { nullable: true }) programmedAt!: string | null;
  @Field() createdAt!: string;
  @Field() updatedAt!: string;
}

@ObjectType()
export class DeployableConnection extends Connection(DeployableObject, 'Deployable') {}

@ObjectType('AttachHandle', { description: 'What a VM is given: a PCI function, a VF, an mdev, or a partition (MIG device, FPGA region).' })
export class AttachHandleObject {
  @Field() uuid!: string;
  @Field({ description: '`PCI`, `VF`, `MDEV`, `MIG` or `REGION`.' }) kind!: string;
  @Field() address!: string;
  @Field(() => String, { nullable: true }) physicalNetwork!: string | null;
  @Field(() => String, { nullable: true }) mdevType!: string | null;
  @Field(() => Int, { nullable: true }) slot!: number | null;
  @Field() inUse!: boolean;
  @Field(() => String, { nullable: true, description: 'The accelerator request holding it: shown to admins only (tenant data).' })
  claimedBy!: string | null;
  @Field(() => String, { nullable: true, description: "A partition's own handle (MIG device UUID, mdev UUID, region id); null on other handles." })
  partition!: string | null;
}
