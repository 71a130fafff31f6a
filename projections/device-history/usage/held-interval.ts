/**
 * One tenancy as usage accounting reads it (a row of the device-history
 * projection's `dh_tenancies`): who held which device from its claim to its
 * release, and the device's capacity at the claim.
 */
export interface HeldInterval {
  readonly deviceUuid: string;
  readonly projectId: string | null;
  readonly resourceClass: string | null;
  readonly fromPosition: number;
  readonly fromTime: string;
  /** The release; null while held. A release after the report's position counts as still held. */
  readonly toPosition: number | null;
  readonly toTime: string | null;
  readonly capacity: HeldCapacity;
}

/** What a holder had of the device, for capacity-seconds; null where the device does not report it. */
export interface HeldCapacity {
  readonly memoryGiB: number | null;
  /** MIG slices of a GPU: no device reports them yet, so always null until the inventory records slices. */
  readonly migSlices: number | null;
}
