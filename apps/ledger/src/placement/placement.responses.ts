import { ApiProperty } from '@nestjs/swagger';

export class DesiredProviderResponse {
  @ApiProperty({ format: 'uuid', description: "Cyborg's uuid3(NAMESPACE_DNS, name)" })
  uuid!: string;

  @ApiProperty({ example: 'compute-1_0000:3b:00.0', description: "the deployable's name" })
  name!: string;

  @ApiProperty({ format: 'uuid' })
  deviceUuid!: string;

  @ApiProperty({ format: 'uuid' })
  deployableUuid!: string;

  @ApiProperty({ example: 'PGPU', description: 'FPGA, PGPU, VGPU or CUSTOM_*' })
  resourceClass!: string;

  @ApiProperty({ example: 1 })
  total!: number;

  @ApiProperty({ example: 0, description: 'total while any reservation reason holds, else 0' })
  reserved!: number;

  @ApiProperty({ example: 1 })
  maxUnit!: number;

  @ApiProperty({ type: [String], example: ['CUSTOM_NVIDIA_20B5', 'OWNER_CYBORG'] })
  traits!: string[];

  @ApiProperty({ type: [String], enum: ['disabled', 'unhealthy', 'agent-lost', 'out-of-service', 'fenced', 'reprogramming'], example: [] })
  reservedBecause!: string[];
}

/** GET /api/v1/hosts/{hostname}/placement: what Placement should hold for the host's accelerators. */
export class HostPlacementResponse {
  @ApiProperty({ example: 'compute-1', description: "also the name of Nova's compute-node provider, the providers' parent" })
  hostname!: string;

  @ApiProperty({ example: 42, description: 'the log position this state reflects' })
  position!: number;

  @ApiProperty({ type: [DesiredProviderResponse], description: 'one child provider per deployable, sorted by name' })
  providers!: DesiredProviderResponse[];
}

export class BlockedProviderResponse {
  @ApiProperty({ format: 'uuid' })
  uuid!: string;

  @ApiProperty({ example: 'compute-1_0000:3b:00.0' })
  name!: string;

  @ApiProperty({ example: { PGPU: 1 }, description: 'what Nova holds on it, by resource class' })
  usages!: Record<string, number>;
}

export class DriftRepairResponse {
  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: [String], example: ['provider compute-1_0000:3b:00.0 is missing'], description: 'what was found changed behind the ledger, one line per write that put it back' })
  what!: string[];
}

/** Where a host stands with Placement (docs/placement.md "Statuses"). */
export class HostSyncStatusResponse {
  @ApiProperty({ example: 'compute-1' })
  hostname!: string;

  @ApiProperty({ enum: ['in-sync', 'blocked-by-allocations', 'waiting-for-compute-node', 'placement-unavailable', 'failed'] })
  state!: string;

  @ApiProperty({ format: 'date-time', description: 'when the host entered this state (for placement-unavailable: since when Placement has not answered)' })
  since!: string;

  @ApiProperty({ example: 42, description: 'the log position of the desired state Placement last took in full (0 before the first)' })
  position!: number;

  @ApiProperty({ required: false, description: 'why, for every state but in-sync' })
  detail?: string;

  @ApiProperty({ type: [BlockedProviderResponse], required: false, description: 'blocked-by-allocations: providers kept, reserved, until their allocations go' })
  blocked?: BlockedProviderResponse[];

  @ApiProperty({ type: DriftRepairResponse, required: false, description: 'the last time a compare put back what was changed in Placement by hand' })
  lastRepair?: DriftRepairResponse;
}

/** GET /api/v1/hosts/{hostname}/placement: the desired state and where Placement stands with it. */
export class HostPlacementWithSyncResponse extends HostPlacementResponse {
  @ApiProperty({ type: HostSyncStatusResponse, nullable: true, description: "null until the reconciler has compared the host (or while it is off: see GET /api/v1/placement's reconciler)" })
  sync!: HostSyncStatusResponse | null;
}

export class PlacementReconcilerResponse {
  @ApiProperty({ description: 'LEDGER_PLACEMENT_URL is set' })
  enabled!: boolean;

  @ApiProperty({ required: false, description: 'this process runs the reconciler (the processors role)' })
  running?: boolean;

  @ApiProperty({ required: false, description: "this process holds the reconciler's lease: its periodic compare runs here" })
  holdsLease?: boolean;

  @ApiProperty({ required: false, format: 'date-time' })
  lastCompareAt?: string;

  @ApiProperty({ required: false, format: 'date-time', description: 'since when Placement has not answered this process' })
  placementUnavailableSince?: string;
}

export class HostSyncCountsResponse {
  @ApiProperty({ name: 'in-sync' })
  'in-sync'!: number;

  @ApiProperty({ name: 'blocked-by-allocations' })
  'blocked-by-allocations'!: number;

  @ApiProperty({ name: 'waiting-for-compute-node' })
  'waiting-for-compute-node'!: number;

  @ApiProperty({ name: 'placement-unavailable' })
  'placement-unavailable'!: number;

  @ApiProperty()
  failed!: number;
}

/** GET /api/v1/placement: the fleet's sync with Placement. */
export class PlacementFleetResponse {
  @ApiProperty({ type: PlacementReconcilerResponse })
  reconciler!: PlacementReconcilerResponse;

  @ApiProperty({ type: HostSyncCountsResponse, description: 'hosts per state' })
  counts!: HostSyncCountsResponse;

  @ApiProperty({ type: [HostSyncStatusResponse], description: 'the hosts not in sync, by name' })
  items!: HostSyncStatusResponse[];

  @ApiProperty({ nullable: true, type: String, description: 'pass as cursor for the next page; null on the last' })
  nextCursor!: string | null;
}
