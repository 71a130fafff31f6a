import type { AttachHandleSnapshot, DeployableSnapshot, DeviceSnapshot } from './device-snapshot';
import type { HostReport, ReportedAttachHandle, ReportedDeployable, ReportedDevice } from './host-report';
import { attachHandleKey, attachHandleUuidOf, deployableUuidOf, deviceUuidOf, resourceProviderUuidOf } from './identity';

/** The devices of a normalised report as snapshots, with their derived uuids, in PCI address order. */
export function snapshotReport(report: HostReport): DeviceSnapshot[] {
  return report.devices.map((device) => snapshotDevice(report.hostname, device));
}

function snapshotDevice(hostname: string, device: ReportedDevice): DeviceSnapshot {
  const uuid = deviceUuidOf(hostname, device.pciAddress);
  return {
    uuid,
    type: device.type,
    vendorId: device.vendorId,
    productId: device.productId,
    subsystemVendorId: device.subsystemVendorId,
    subsystemProductId: device.subsystemProductId,
    model: device.model,
    pciAddress: device.pciAddress,
    boardInfo: device.boardInfo,
    vendorBoardInfo: device.vendorBoardInfo,
    driver: device.driver,
    numaNode: device.numaNode,
    capacity: device.capacity,
    ...(device.partitioning ? { partitioning: device.partitioning } : {}),
    deployables: device.deployables.map((deployable) => snapshotDeployable(uuid, deployable)),
  };
}

function snapshotDeployable(deviceUuid: string, deployable: ReportedDeployable): DeployableSnapshot {
  const name = deployable.name!;
  const uuid = deployableUuidOf(deviceUuid, name);
  return {
    uuid,
    name,
    rpUuid: resourceProviderUuidOf(name),
    resourceClass: deployable.resourceClass,
    count: deployable.count,
    traits: deployable.traits,
    driverName: deployable.driverName,
    attachHandles: deployable.attachHandles.map((handle) => snapshotAttachHandle(uuid, handle)),
  };
}

function snapshotAttachHandle(deployableUuid: string, handle: ReportedAttachHandle): AttachHandleSnapshot {
  return {
    uuid: attachHandleUuidOf(deployableUuid, attachHandleKey(handle)),
    kind: handle.kind,
    address: handle.address,
    physicalNetwork: handle.physicalNetwork,
    mdevType: handle.mdevType,
    slot: handle.slot,
    ...(handle.partition === undefined ? {} : { partition: handle.partition }),
  };
}
