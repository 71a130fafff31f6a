/** Rows of the inventory read model as the API serves them. */
export interface HostView {
  readonly hostname: string;
  readonly registeredAt: string;
  /** When a report last changed something (unchanged reports append nothing). */
  readonly lastReportAt: string;
  readonly deviceCount: number;
  readonly status: string;
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
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface AttachHandleView {
  readonly uuid: string;
  readonly deployableUuid: string;
  readonly deviceUuid: string;
  readonly hostname: string;
  readonly kind: 'PCI' | 'VF' | 'MDEV';
  readonly address: string;
  readonly physicalNetwork: string | null;
  readonly mdevType: string | null;
  readonly slot: number | null;
  readonly inUse: boolean;
}

/** One page of a keyset-paginated list; pass `nextCursor` back as `cursor` for the next (null: no more). */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}
