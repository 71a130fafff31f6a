import type { RecordedEvent } from '@ledger/eventstore';
import type { InventoryEvent } from '@ledger/inventory';
import { createAttribute, deleteAttribute } from './attribute-changes';
import { claimHandle, releaseHandle } from './claim-changes';
import { deleteDeployablesOf, putDeployables, putHandles } from './deployable-changes';
import { changeDevice, discoverDevice, removeDevice, setCleaning, setHealth, setMaintenance } from './device-changes';
import { configureVfs, programRegion, programShell, regionProgramFailed } from './program-changes';
import type { InventoryWorkingSet } from './inventory-working-set';

/**
 * Applies one event to the batch's rows in memory (no I/O). A host-stream
 * event first claims its host's `stream_version`: an event at or below it
 * was applied before and changes nothing, and so does one for a host that
 * never registered. Device-stream events are guarded by the device's
 * `device_version` instead, attribute-stream events by the attribute's
 * `stream_version`.
 */
export function applyInventoryEvent(set: InventoryWorkingSet, recorded: RecordedEvent): void {
  const event = recorded as unknown as RecordedEvent & InventoryEvent;
  const at = recorded.recordedAt;
  switch (event.type) {
    case 'inventory.HostRegistered': {
      const { hostname, registeredAt } = event.data;
      if (set.hosts.get(hostname) !== undefined) return;
      set.hosts.put({
        hostname,
        registered_at: registeredAt,
        last_report_at: at,
        device_count: 0,
        status: 'registered',
        stream_version: recorded.version,
        agent_lost_at: null,
        fenced_reason: null,
        fenced_at: null,
      });
      return;
    }
    case 'inventory.DeviceDiscovered': {
      const { hostname, device } = event.data;
      if (!claimHostEvent(set, hostname, recorded, 1)) return;
      discoverDevice(set, hostname, device, at);
      putDeployables(set, device.uuid, hostname, device.deployables, recorded);
      for (const deployable of device.deployables) putHandles(set, hostname, device.uuid, deployable.uuid, deployable.attachHandles);
      return;
    }
    case 'inventory.DeviceChanged': {
      const { hostname, deviceUuid, description, changedFields } = event.data;
      if (!claimHostEvent(set, hostname, recorded, 0)) return;
      changeDevice(set, deviceUuid, description, at);
      if (!changedFields.some((field) => field.startsWith('deployables'))) return;
      putDeployables(set, deviceUuid, hostname, description.deployables, recorded);
      // Deployables this event did not list (older stream_version) are gone, with their handles.
      if (changedFields.includes('deployables')) deleteDeployablesOf(set, deviceUuid, (row) => row.stream_version < recorded.version);
      return;
    }
    case 'inventory.DeviceRemoved': {
      const { hostname, deviceUuid } = event.data;
      if (!claimHostEvent(set, hostname, recorded, -1)) return;
      removeDevice(set, deviceUuid, at);
      deleteDeployablesOf(set, deviceUuid, () => true);
      return;
    }
    case 'inventory.AttachHandlesAdded': {
      const { hostname, deviceUuid, deployableUuid, handles } = event.data;
      if (!claimHostEvent(set, hostname, recorded, 0)) return;
      putHandles(set, hostname, deviceUuid, deployableUuid, handles);
      return;
    }
    case 'inventory.AttachHandlesRemoved': {
      const { hostname, handleUuids } = event.data;
      if (!claimHostEvent(set, hostname, recorded, 0)) return;
      for (const uuid of handleUuids) set.handles.delete(uuid);
      return;
    }
    case 'inventory.DeviceDisabled':
      setMaintenance(set, event.data.deviceUuid, 'maintaining', event.data.reason, recorded);
      return;
    case 'inventory.DeviceEnabled':
      setMaintenance(set, event.data.deviceUuid, 'enabled', null, recorded);
      return;
    case 'inventory.DeviceHealthChanged':
      setHealth(set, event.data.deviceUuid, event.data.health, event.data.reason, recorded);
      return;
    case 'inventory.DeviceCleanPending':
    case 'inventory.DeviceCleaningStarted':
    case 'inventory.DeviceCleaned':
    case 'inventory.DeviceCleanFailed':
    case 'inventory.DeviceCleanReleased':
      setCleaning(set, event.data.deviceUuid, recorded as RecordedEvent & typeof event);
      return;
    case 'inventory.RegionProgrammed':
      programRegion(set, event.data, recorded);
      return;
    case 'inventory.RegionProgramFailed':
      regionProgramFailed(set, event.data, recorded);
      return;
    case 'inventory.ShellProgrammed':
      programShell(set, event.data.deviceUuid, event.data.interfaceId, recorded);
      return;
    case 'inventory.VfsConfigured':
      configureVfs(set, event.data.deviceUuid, event.data.numVfs, recorded);
      return;
    case 'inventory.AgentLost':
      setAgentLost(set, event.data.hostname, event.data.detectedAt, recorded);
      return;
    case 'inventory.AgentBack':
      setAgentLost(set, event.data.hostname, null, recorded);
      return;
    case 'inventory.HostFenced':
      setHostFence(set, event.data.hostname, { reason: event.data.reason, at: event.data.at }, recorded);
      return;
    case 'inventory.HostUnfenced':
      setHostFence(set, event.data.hostname, null, recorded);
      return;
    case 'inventory.HostProvisioningStarted':
      setHostStatus(set, event.data.hostname, 'provisioning', recorded);
      return;
    case 'inventory.HostProvisioned':
      setHostStatus(set, event.data.hostname, 'provisioned', recorded);
      return;
    case 'inventory.HostProvisionFailed':
      setHostStatus(set, event.data.hostname, 'provision-failed', recorded);
      return;
    case 'inventory.AttachHandleClaimed':
      claimHandle(set, event.data, recorded);
      return;
    case 'inventory.AttachHandleReleased':
      releaseHandle(set, event.data, recorded);
      return;
    case 'inventory.AttributeCreated':
      createAttribute(set, event, recorded);
      return;
    case 'inventory.AttributeDeleted':
      deleteAttribute(set, event, recorded);
      return;
    default:
      return;
  }
}

/** Liveness facts are host-stream events too, but say nothing of reports: `last_report_at` stays. */
function setAgentLost(set: InventoryWorkingSet, hostname: string, lostAt: string | null, event: RecordedEvent): void {
  const host = set.hosts.get(hostname);
  if (host === undefined || host.stream_version >= event.version) return;
  set.hosts.put({ ...host, stream_version: event.version, agent_lost_at: lostAt });
}

/** The fence in force on the host (docs/operations.md, "Fencing a host"), or none. */
function setHostFence(set: InventoryWorkingSet, hostname: string, fence: { reason: string; at: string } | null, event: RecordedEvent): void {
  const host = set.hosts.get(hostname);
  if (host === undefined || host.stream_version >= event.version) return;
  set.hosts.put({ ...host, stream_version: event.version, fenced_reason: fence?.reason ?? null, fenced_at: fence?.at ?? null });
}

/** Where the host stands with provisioning (docs/workflows.md, "The provision workflow"); a host never provisioned stays `registered`. Says nothing of reports either. */
function setHostStatus(set: InventoryWorkingSet, hostname: string, status: 'provisioning' | 'provisioned' | 'provision-failed', event: RecordedEvent): void {
  const host = set.hosts.get(hostname);
  if (host === undefined || host.stream_version >= event.version) return;
  set.hosts.put({ ...host, stream_version: event.version, status });
}

/** True when the host-stream event is new for this read model (and records it on the host), false when seen before. */
function claimHostEvent(set: InventoryWorkingSet, hostname: string, event: RecordedEvent, deviceDelta: number): boolean {
  const host = set.hosts.get(hostname);
  if (host === undefined || host.stream_version >= event.version) return false;
  host.stream_version = event.version;
  host.last_report_at = event.recordedAt;
  host.device_count += deviceDelta;
  set.hosts.put(host);
  return true;
}
