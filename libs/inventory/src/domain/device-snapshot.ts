import type { AttachHandleKind, ReportedDevice } from './host-report';

/** An attach handle as recorded: its identity, uuid and the network it reaches. */
export interface AttachHandleSnapshot {
  readonly uuid: string;
  readonly kind: AttachHandleKind;
  readonly address: string;
  readonly physicalNetwork?: string;
  readonly mdevType?: string;
  readonly slot?: number;
  /** A partition's own handle (MIG device UUID, mdev UUID, region id); absent on other handles. */
  readonly partition?: string;
}

/** A deployable (one Placement provider) without its attach handles. */
export interface DeployableDescription {
  readonly uuid: string;
  /** The resource provider name. */
  readonly name: string;
  /** The Placement provider uuid, `uuid3(NAMESPACE_DNS, name)` as Cyborg computes it. */
  readonly rpUuid: string;
  readonly resourceClass: string;
  readonly count: number;
  /** Sorted, without duplicates. */
  readonly traits: readonly string[];
  readonly driverName?: string;
}

export interface DeployableSnapshot extends DeployableDescription {
  /** Sorted by kind, address, mdev type, slot. */
  readonly attachHandles: readonly AttachHandleSnapshot[];
}

/**
 * Everything reported about a device except its uuid and attach handles, in
 * normalised form (board info keys and deployables sorted by name).
 */
export interface DeviceDescription extends Omit<ReportedDevice, 'deployables'> {
  readonly deployables: readonly DeployableDescription[];
}

/** A device as the ledger knows it: description, uuid, and deployables with their handles. */
export interface DeviceSnapshot extends Omit<DeviceDescription, 'deployables'> {
  readonly uuid: string;
  readonly deployables: readonly DeployableSnapshot[];
}

/** The description of a snapshot (handles dropped), as carried by `inventory.DeviceChanged`. */
export function describeDevice(device: DeviceSnapshot): DeviceDescription {
  const { uuid: _uuid, deployables, ...rest } = device;
  return { ...rest, deployables: deployables.map(({ attachHandles: _handles, ...deployable }) => deployable) };
}
