import { canonicalJson } from '@ledger/kernel';
import { describeDevice, type AttachHandleSnapshot, type DeviceSnapshot } from './device-snapshot';
import type { KnownDevice } from './host-inventory.state';
import { compareStrings } from './identity';
import type { DeviceChangedField, HostInventoryEvent } from './inventory.events';

const SCALAR_FIELDS = [
  'type',
  'vendorId',
  'productId',
  'subsystemVendorId',
  'subsystemProductId',
  'model',
  'vendorBoardInfo',
  'driver',
  'numaNode',
] as const satisfies readonly (keyof DeviceSnapshot & DeviceChangedField)[];

/**
 * The events that turn what the ledger knows about a host into what its
 * agent now reports, in PCI address order. Devices are matched by uuid
 * (derived from host + PCI address), deployables and handles by uuid too.
 * Devices with equal fingerprints are skipped without a deep comparison.
 */
export function diffHostReport(
  hostname: string,
  known: ReadonlyMap<string, KnownDevice>,
  reported: readonly KnownDevice[],
): HostInventoryEvent[] {
  const reportedByUuid = new Map(reported.map((device) => [device.snapshot.uuid, device]));
  const all = [...reported, ...[...known.values()].filter((device) => !reportedByUuid.has(device.snapshot.uuid))];
  all.sort((a, b) => compareStrings(a.snapshot.pciAddress, b.snapshot.pciAddress));

  const events: HostInventoryEvent[] = [];
  for (const { snapshot } of all) {
    const before = known.get(snapshot.uuid);
    const after = reportedByUuid.get(snapshot.uuid);
    if (!after) {
      events.push({ type: 'inventory.DeviceRemoved', data: { hostname, deviceUuid: snapshot.uuid } });
    } else if (!before) {
      events.push({ type: 'inventory.DeviceDiscovered', data: { hostname, device: after.snapshot } });
    } else if (before.fingerprint !== after.fingerprint) {
      events.push(...diffDevice(hostname, before.snapshot, after.snapshot));
    }
  }
  return events;
}

function diffDevice(hostname: string, before: DeviceSnapshot, after: DeviceSnapshot): HostInventoryEvent[] {
  const events: HostInventoryEvent[] = [];
  const deviceUuid = after.uuid;
  const changedFields = changedFieldsOf(before, after);
  if (changedFields.length > 0) {
    events.push({ type: 'inventory.DeviceChanged', data: { hostname, deviceUuid, description: describeDevice(after), changedFields } });
  }
  const handlesBefore = new Map(before.deployables.map((deployable) => [deployable.uuid, deployable.attachHandles]));
  for (const deployable of after.deployables) {
    const previous = new Map((handlesBefore.get(deployable.uuid) ?? []).map((handle) => [handle.uuid, handle]));
    const current = new Set(deployable.attachHandles.map((handle) => handle.uuid));
    // A handle whose attributes changed (its physical network) is re-added under the same uuid.
    const changed = deployable.attachHandles.filter((handle) => {
      const old = previous.get(handle.uuid);
      return old !== undefined && !sameHandle(old, handle);
    });
    const removed = [...previous.keys()].filter((uuid) => !current.has(uuid)).concat(changed.map((handle) => handle.uuid));
    const added = deployable.attachHandles.filter((handle) => !previous.has(handle.uuid)).concat(changed);
    const deployableUuid = deployable.uuid;
    if (removed.length > 0) {
      events.push({ type: 'inventory.AttachHandlesRemoved', data: { hostname, deviceUuid, deployableUuid, handleUuids: removed } });
    }
    if (added.length > 0) {
      events.push({ type: 'inventory.AttachHandlesAdded', data: { hostname, deviceUuid, deployableUuid, handles: added } });
    }
  }
  return events;
}

function changedFieldsOf(before: DeviceSnapshot, after: DeviceSnapshot): DeviceChangedField[] {
  const fields: DeviceChangedField[] = SCALAR_FIELDS.filter((field) => before[field] !== after[field]);
  if (canonicalJson(before.boardInfo) !== canonicalJson(after.boardInfo)) fields.push('boardInfo');
  if (canonicalJson(before.capacity) !== canonicalJson(after.capacity)) fields.push('capacity');
  if (canonicalJson(before.partitioning) !== canonicalJson(after.partitioning)) fields.push('partitioning');

  const previous = new Map(before.deployables.map((deployable) => [deployable.uuid, deployable]));
  const sameSet =
    before.deployables.length === after.deployables.length && after.deployables.every((deployable) => previous.has(deployable.uuid));
  if (!sameSet) fields.push('deployables');
  const kept = after.deployables.flatMap((deployable) => {
    const old = previous.get(deployable.uuid);
    return old ? [{ old, now: deployable }] : [];
  });
  if (kept.some(({ old, now }) => old.resourceClass !== now.resourceClass)) fields.push('deployables.resourceClass');
  if (kept.some(({ old, now }) => old.count !== now.count)) fields.push('deployables.count');
  if (kept.some(({ old, now }) => old.traits.join(' ') !== now.traits.join(' '))) fields.push('deployables.traits');
  if (kept.some(({ old, now }) => old.driverName !== now.driverName)) fields.push('deployables.driverName');
  return fields;
}

const sameHandle = (a: AttachHandleSnapshot, b: AttachHandleSnapshot): boolean =>
  a.kind === b.kind &&
  a.address === b.address &&
  a.physicalNetwork === b.physicalNetwork &&
  a.mdevType === b.mdevType &&
  a.slot === b.slot &&
  a.partition === b.partition;
