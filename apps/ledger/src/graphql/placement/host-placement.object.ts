import { Field, Int, ObjectType } from '@nestjs/graphql';
import { JsonScalar } from '../shared/json.scalar';

@ObjectType('PlacementProvider', { description: 'A child resource provider the ledger wants under the compute node, one per deployable.' })
export class PlacementProviderObject {
  @Field() uuid!: string;
  @Field() name!: string;
  @Field() deviceUuid!: string;
  @Field() deployableUuid!: string;
  @Field() resourceClass!: string;
  @Field(() => Int) total!: number;
  @Field(() => Int, { description: '`total` while any reason holds, else 0.' }) reserved!: number;
  @Field(() => Int) maxUnit!: number;
  @Field(() => [String]) traits!: string[];
  @Field(() => [String], { description: 'Empty when schedulable.' }) reservedBecause!: string[];
}

@ObjectType('PlacementSync', { description: "The reconciler's last word on the host." })
export class PlacementSyncObject {
  @Field({ description: '`in-sync`, `blocked-by-allocations`, `waiting-for-compute-node`, `placement-unavailable` or `failed`.' }) state!: string;
  @Field() since!: string;
  @Field(() => Int) position!: number;
  @Field(() => String, { nullable: true }) detail?: string;
  @Field(() => JsonScalar, { nullable: true }) blocked?: unknown;
  @Field(() => JsonScalar, { nullable: true }) lastRepair?: unknown;
}

@ObjectType('HostPlacement', { description: "What Placement should hold for a host's accelerators (docs/placement.md), and where it stands." })
export class HostPlacementObject {
  @Field() hostname!: string;
  @Field(() => Int, { description: 'The log position this state reflects.' }) position!: number;
  @Field(() => [PlacementProviderObject]) providers!: PlacementProviderObject[];
  @Field(() => PlacementSyncObject, { nullable: true }) sync!: PlacementSyncObject | null;
}
