/**
 * What Placement should hold for one host's accelerators: a pure function of
 * the ledger's events (projections/placement builds it), compared by the
 * reconciler with what Placement actually holds. Names and uuids follow
 * Cyborg (docs/placement.md) so existing deployments line up.
 */
export interface DesiredHostPlacement {
  /** The host, which is also the name of Nova's compute-node provider (the parent). */
  readonly hostname: string;
  /** One child provider per deployable, sorted by name. Empty: every provider we made under this host goes. */
  readonly providers: readonly DesiredProvider[];
  /** The log position this state reflects. */
  readonly position: number;
}

/** Why a provider's whole inventory is reserved (cannot be scheduled). */
export type ReservationReason = 'disabled' | 'unhealthy' | 'agent-lost' | 'out-of-service' | 'fenced' | 'reprogramming' | 'cleaning' | 'clean-failed';

export interface DesiredProvider {
  /** Cyborg's `uuid3(NAMESPACE_DNS, name)`. */
  readonly uuid: string;
  /** The deployable's name, e.g. `<host>_<pci address>`. */
  readonly name: string;
  readonly deviceUuid: string;
  readonly deployableUuid: string;
  /** Standard (`FPGA`, `PGPU`, `VGPU`) or `CUSTOM_*`. */
  readonly resourceClass: string;
  readonly total: number;
  /** `total` while any reason holds, else 0. */
  readonly reserved: number;
  readonly maxUnit: number;
  /** Sorted; always includes `OWNER_CYBORG`. */
  readonly traits: readonly string[];
  /** Empty when schedulable. */
  readonly reservedBecause: readonly ReservationReason[];
}

/** The trait that marks providers the ledger owns; the reconciler only ever touches providers carrying it. */
export const OWNER_TRAIT = 'OWNER_CYBORG';

/** Where the reconciler reads the desired state (the placement projection's queries implement it). */
export interface DesiredPlacementSource {
  /** Every host that has, or had, accelerators. */
  hostnames(): Promise<readonly string[]>;
  host(hostname: string): Promise<DesiredHostPlacement | undefined>;
}
