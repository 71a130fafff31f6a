import type { AgentStatus } from './live-view/live-view.views';

/** Rows of the inventory read model as the API serves them. */
export interface HostView {
  readonly hostname: string;
  readonly registeredAt: string;
  /** When a report last changed something (unchanged reports append nothing). */
  readonly lastReportAt: string;
  readonly deviceCount: number;
  /** `registered`, then `provisioning`, `provisioned` or `provision-failed` once a provision workflow ran (inventory.HostProvisioning*). */
  readonly status: string;
  /** `lost` after AgentLost until AgentBack, `up` once seen, `unknown` before (see live-view/). */
  readonly agentStatus: AgentStatus;
  /** The last report or heartbeat (the live view, at most a flush interval old). */
  readonly lastSeenAt: string | null;
  /** An operator (or auto-fence) fenced the host (inventory.HostFenced, no HostUnfenced since): nothing on it is offered or claimable. */
  readonly fenced: boolean;
  /** The fence's reason and `at`; null while not fenced. */
  readonly fencedReason: string | null;
  readonly fencedAt: string | null;
}

export interface DeviceView {
  readonly uuid: string;
  readonly hostname: string;
  readonly type: string;
  readonly vendorId: string;
  readonly productId: string;
  readonly subsystemVendorId: string | null;
  readonly subsystemProductId: string | null;
  readonly model: string;
  readonly pciAddress: string;
  readonly boardInfo: Record<string, string>;
  readonly vendorBoardInfo: string | null;
  readonly driver: string | null;
  readonly numaNode: number | null;
  readonly capacity: Record<string, number> | null;
  /** `enabled` or `maintaining` (Cyborg's device status). */
  readonly status: 'enabled' | 'maintaining';
  readonly disabledReason: string | null;
  /** Recorded health: changes of level reported by heartbeats. */
  readonly health: 'ok' | 'degraded' | 'failed';
  readonly healthReason: string | null;
  /** `clean`, or the worst status of the handles released and not yet clean: `pending` (fenced), `cleaning`, `clean-failed`. */
  readonly cleanState: 'clean' | 'pending' | 'cleaning' | 'clean-failed';
  /** Why the last clean failed, or why handles wait (the fence's reason); null when clean. */
  readonly cleanReason: string | null;
  /** The released handles not yet clean, with their status. */
  readonly dirtyHandles: Record<string, string>;
  /** The interface id the last shell load read back (inventory.ShellProgrammed); null before one. */
  readonly shellInterfaceId: string | null;
  /** The VF count of the last configure-vfs job (inventory.VfsConfigured); null before one. */
  readonly configuredVfs: number | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface DeployableView {
  readonly uuid: string;
  readonly deviceUuid: string;
  readonly hostname: string;
  readonly name: string;
  readonly rpUuid: string;
  readonly resourceClass: string;
  readonly count: number;
  readonly traits: string[];
  readonly driverName: string | null;
  /** The registered bitstream the region was last loaded with (inventory.RegionProgrammed); null when none is known. */
  readonly bitstreamId: string | null;
  /** The function the region holds, as the agent read it back; null before a recorded load. */
  readonly functionId: string | null;
  readonly programmedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface AttachHandleView {
  readonly uuid: string;
  readonly deployableUuid: string;
  readonly deviceUuid: string;
  readonly hostname: string;
  readonly kind: 'PCI' | 'VF' | 'MDEV' | 'MIG' | 'REGION';
  readonly address: string;
  readonly physicalNetwork: string | null;
  readonly mdevType: string | null;
  readonly slot: number | null;
  readonly inUse: boolean;
  /** The accelerator request that holds the handle, or null. */
  readonly claimedBy: string | null;
  /** A partition's own handle (MIG device UUID, mdev UUID, region id; docs/partitions.md), null on other handles. */
  readonly partition: string | null;
}

/** What binding a request to a resource provider needs to know of its deployable. */
export interface DeployableBindingView {
  readonly uuid: string;
  readonly deviceUuid: string;
  readonly hostname: string;
  readonly name: string;
  readonly rpUuid: string;
  readonly resourceClass: string;
  readonly count: number;
  readonly traits: string[];
  readonly driverName: string | null;
  /** The registered bitstream the region was last loaded with; null when none is known. */
  readonly bitstreamId: string | null;
  readonly deviceStatus: 'enabled' | 'maintaining';
  readonly deviceHealth: DeviceView['health'];
  readonly deviceHealthReason: string | null;
  /** The host's agent is lost (AgentLost, no AgentBack since). */
  readonly agentLost: boolean;
  readonly deviceCapacity: Record<string, number> | null;
}

/** An attach handle as binding chooses among them. */
export type BindableHandleView = Pick<
  AttachHandleView,
  'uuid' | 'kind' | 'address' | 'physicalNetwork' | 'mdevType' | 'slot' | 'inUse' | 'claimedBy' | 'partition'
>;

/** A claim held on an attach handle (also while the handle is not reported). */
export interface HandleClaimView {
  readonly handleUuid: string;
  readonly arqUuid: string;
  readonly deviceUuid: string;
  readonly deployableUuid: string;
}

/** A deployable's attribute: discovered from the report (`rc`, `trait<N>`) or set by an operator. */
export interface AttributeView {
  readonly uuid: string;
  readonly deployableUuid: string;
  /** The deployable's integer id (Cyborg's `deployable_id`). */
  readonly deployableId: number;
  readonly key: string;
  readonly value: string;
  readonly origin: 'discovered' | 'operator';
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** One page of a keyset-paginated list; pass `nextCursor` back as `cursor` for the next (null: no more). */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}
