import type { AttachHandleSnapshot, DeployableSnapshot, DeviceDescription, DeviceSnapshot } from './device-snapshot';
import { deviceFingerprint, hostFingerprint } from './fingerprint';
import { compareAttachHandles, compareStrings } from './identity';
import type { HostInventoryEvent } from './inventory.events';

export interface KnownDevice {
  readonly snapshot: DeviceSnapshot;
  readonly fingerprint: string;
}

/** What the ledger knows about one host: folded from its host stream. */
export interface HostInventoryState {
  /** Null until the first report is accepted. */
  readonly hostname: string | null;
  /** By device uuid. */
  readonly devices: ReadonlyMap<string, KnownDevice>;
  /** Fingerprint of the last accepted report (see fingerprint.ts). */
  readonly fingerprint: string;
}

export const initialHostInventoryState = (): HostInventoryState => ({
  hostname: null,
  devices: new Map(),
  fingerprint: hostFingerprint([]),
});

export function evolveHostInventory(state: HostInventoryState, event: HostInventoryEvent): HostInventoryState {
  switch (event.type) {
    case 'inventory.HostRegistered':
      return { ...state, hostname: event.data.hostname };
    case 'inventory.DeviceDiscovered':
      return withDevice(state, event.data.device.uuid, event.data.device);
    case 'inventory.DeviceChanged':
      return updateDevice(state, event.data.deviceUuid, (device) => applyDescription(device, event.data.description));
    case 'inventory.DeviceRemoved':
      return withDevice(state, event.data.deviceUuid, undefined);
    case 'inventory.AttachHandlesAdded':
      return updateDeployable(state, event.data.deviceUuid, event.data.deployableUuid, (handles) => {
        const added = new Map(event.data.handles.map((handle) => [handle.uuid, handle]));
        return [...handles.filter((handle) => !added.has(handle.uuid)), ...added.values()].sort(compareAttachHandles);
      });
    case 'inventory.AttachHandlesRemoved':
      return updateDeployable(state, event.data.deviceUuid, event.data.deployableUuid, (handles) => {
        const removed = new Set(event.data.handleUuids);
        return handles.filter((handle) => !removed.has(handle.uuid));
      });
    default:
      return state;
  }
}

/** The new description with the handles of the deployables that stay; new deployables start without handles. */
function applyDescription(device: DeviceSnapshot, description: DeviceDescription): DeviceSnapshot {
  const handlesOf = new Map(device.deployables.map((deployable) => [deployable.uuid, deployable.attachHandles]));
  return {
    ...description,
    uuid: device.uuid,
    deployables: description.deployables.map((deployable) => ({
      ...deployable,
      attachHandles: handlesOf.get(deployable.uuid) ?? [],
    })),
  };
}

function updateDeployable(
  state: HostInventoryState,
  deviceUuid: string,
  deployableUuid: string,
  change: (handles: readonly AttachHandleSnapshot[]) => readonly AttachHandleSnapshot[],
): HostInventoryState {
  return updateDevice(state, deviceUuid, (device) => ({
    ...device,
    deployables: device.deployables.map(
      (deployable): DeployableSnapshot =>
        deployable.uuid === deployableUuid ? { ...deployable, attachHandles: change(deployable.attachHandles) } : deployable,
    ),
  }));
}

function updateDevice(
  state: HostInventoryState,
  deviceUuid: string,
  change: (device: DeviceSnapshot) => DeviceSnapshot,
): HostInventoryState {
  const known = state.devices.get(deviceUuid);
  return known ? withDevice(state, deviceUuid, change(known.snapshot)) : state;
}

function withDevice(state: HostInventoryState, deviceUuid: string, snapshot: DeviceSnapshot | undefined): HostInventoryState {
  const devices = new Map(state.devices);
  if (snapshot) devices.set(deviceUuid, { snapshot, fingerprint: deviceFingerprint(snapshot) });
  else devices.delete(deviceUuid);
  const inAddressOrder = [...devices.values()].sort((a, b) => compareStrings(a.snapshot.pciAddress, b.snapshot.pciAddress));
  return { ...state, devices, fingerprint: hostFingerprint(inAddressOrder.map((device) => device.fingerprint)) };
}
