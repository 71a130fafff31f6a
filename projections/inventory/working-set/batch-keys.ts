import type { RecordedEvent } from '@ledger/eventstore';
import type { InventoryEvent } from '@ledger/inventory';

/** What a batch of inventory events may read or write, by key. */
export interface BatchKeys {
  readonly hostnames: ReadonlySet<string>;
  readonly deviceUuids: ReadonlySet<string>;
  /** Devices whose deployables an event may delete wholesale (DeviceRemoved, DeviceChanged of deployables). */
  readonly parentDeviceUuids: ReadonlySet<string>;
  /** Deployables an event may insert or update (also the keys of what their regions hold). */
  readonly deployableUuids: ReadonlySet<string>;
  /** Deployables, named by an event, of parent devices: a wholesale delete takes their handles too. */
  readonly handleParentUuids: ReadonlySet<string>;
  /** Attach handles an event may insert, update or delete; also the keys of their claims. */
  readonly handleUuids: ReadonlySet<string>;
  /** Operator attributes an event may create or delete. */
  readonly attributeUuids: ReadonlySet<string>;
}

export function collectBatchKeys(events: readonly RecordedEvent[]): BatchKeys {
  const hostnames = new Set<string>();
  const deviceUuids = new Set<string>();
  const parentDeviceUuids = new Set<string>();
  const deployableUuids = new Set<string>();
  const handleUuids = new Set<string>();
  const attributeUuids = new Set<string>();
  const deployablesByDevice: [string, string][] = [];
  const nameDeployable = (deviceUuid: string, deployableUuid: string) => {
    deployableUuids.add(deployableUuid);
    deployablesByDevice.push([deviceUuid, deployableUuid]);
  };
  for (const recorded of events) {
    const event = recorded as unknown as InventoryEvent;
    switch (event.type) {
      case 'inventory.HostRegistered':
        hostnames.add(event.data.hostname);
        break;
      case 'inventory.DeviceDiscovered': {
        const { hostname, device } = event.data;
        hostnames.add(hostname);
        deviceUuids.add(device.uuid);
        for (const deployable of device.deployables) {
          nameDeployable(device.uuid, deployable.uuid);
          for (const handle of deployable.attachHandles) handleUuids.add(handle.uuid);
        }
        break;
      }
      case 'inventory.DeviceChanged': {
        const { hostname, deviceUuid, description, changedFields } = event.data;
        hostnames.add(hostname);
        deviceUuids.add(deviceUuid);
        if (changedFields.includes('deployables')) parentDeviceUuids.add(deviceUuid);
        if (changedFields.some((field) => field.startsWith('deployables'))) {
          for (const deployable of description.deployables) nameDeployable(deviceUuid, deployable.uuid);
        }
        break;
      }
      case 'inventory.DeviceRemoved':
        hostnames.add(event.data.hostname);
        deviceUuids.add(event.data.deviceUuid);
        parentDeviceUuids.add(event.data.deviceUuid);
        break;
      case 'inventory.AttachHandlesAdded':
        hostnames.add(event.data.hostname);
        for (const handle of event.data.handles) handleUuids.add(handle.uuid);
        break;
      case 'inventory.AttachHandlesRemoved':
        hostnames.add(event.data.hostname);
        for (const uuid of event.data.handleUuids) handleUuids.add(uuid);
        break;
      case 'inventory.DeviceDisabled':
      case 'inventory.DeviceEnabled':
      case 'inventory.DeviceHealthChanged':
      case 'inventory.ShellProgrammed':
      case 'inventory.VfsConfigured':
      case 'inventory.DeviceCleanPending':
      case 'inventory.DeviceCleaningStarted':
      case 'inventory.DeviceCleaned':
      case 'inventory.DeviceCleanFailed':
      case 'inventory.DeviceCleanReleased':
        deviceUuids.add(event.data.deviceUuid);
        break;
      case 'inventory.RegionProgrammed':
      case 'inventory.RegionProgramFailed':
        deviceUuids.add(event.data.deviceUuid);
        deployableUuids.add(event.data.deployableUuid);
        break;
      case 'inventory.AgentLost':
      case 'inventory.AgentBack':
      case 'inventory.HostFenced':
      case 'inventory.HostUnfenced':
      case 'inventory.HostProvisioningStarted':
      case 'inventory.HostProvisioned':
      case 'inventory.HostProvisionFailed':
        hostnames.add(event.data.hostname);
        break;
      case 'inventory.AttachHandleClaimed':
      case 'inventory.AttachHandleReleased':
        deviceUuids.add(event.data.deviceUuid);
        handleUuids.add(event.data.handleUuid);
        break;
      case 'inventory.AttributeCreated':
      case 'inventory.AttributeDeleted':
        attributeUuids.add(event.data.uuid);
        break;
      default:
        break;
    }
  }
  const handleParentUuids = new Set(deployablesByDevice.filter(([device]) => parentDeviceUuids.has(device)).map(([, deployable]) => deployable));
  return { hostnames, deviceUuids, parentDeviceUuids, deployableUuids, handleParentUuids, handleUuids, attributeUuids };
}
