import type { RecordedEvent } from '@ledger/eventstore';
import { InventoryEventTypes } from '@ledger/inventory';
import { JobEventTypes } from '@ledger/jobs';
import { type Projection, selectByKeys } from '@ledger/processing';
import { flushPlacementBatch } from './flush-placement-batch';
import { PlacementBatch, type PlacementEvent } from './placement-batch';
import { deployableRowFrom, deviceRowFrom, hostRowFrom, programJobRowFrom } from './placement.rows';
import { createPlacementSchema, emptyPlacementTables } from './placement.schema';

/** The events the desired Placement state follows from (Dispatched changes nothing: a job is in flight from its request). */
export const PLACEMENT_EVENT_TYPES = [
  InventoryEventTypes.HostRegistered,
  InventoryEventTypes.DeviceDiscovered,
  InventoryEventTypes.DeviceChanged,
  InventoryEventTypes.DeviceRemoved,
  InventoryEventTypes.DeviceDisabled,
  InventoryEventTypes.DeviceEnabled,
  InventoryEventTypes.DeviceHealthChanged,
  InventoryEventTypes.AgentLost,
  InventoryEventTypes.AgentBack,
  InventoryEventTypes.HostProvisioningStarted,
  InventoryEventTypes.HostProvisioned,
  InventoryEventTypes.HostProvisionFailed,
  InventoryEventTypes.HostFenced,
  InventoryEventTypes.HostUnfenced,
  InventoryEventTypes.DeviceCleanPending,
  InventoryEventTypes.DeviceCleaningStarted,
  InventoryEventTypes.DeviceCleaned,
  InventoryEventTypes.DeviceCleanFailed,
  InventoryEventTypes.DeviceCleanReleased,
  JobEventTypes.JobRequested,
  JobEventTypes.JobCompleted,
  JobEventTypes.JobFailed,
] as const;

/**
 * The desired Placement state (docs/placement.md, "Desired state"): per
 * host, the facts its providers follow from — deployables as reported,
 * each device's maintenance and health, the agent's liveness, whether the
 * host is in service (its provisioning), program jobs
 * in flight and the function they loaded. A batch loads the rows it
 * touches with a few IN lists, applies its events in memory and writes the
 * rows back with multi-row upserts.
 */
export const placementProjection: Projection = {
  name: 'placement',
  // 2: hosts out of service while provisioned or after a provisioning failed; 3: fenced hosts; 4: devices' dirty handles (cleaning);
  // 5: pl_devices.health holds the health policy's effect, not the level.
  version: 5,
  handles: PLACEMENT_EVENT_TYPES,
  filter: { categories: ['host', 'device', 'job'] },
  setup: createPlacementSchema,
  reset: emptyPlacementTables,
  async apply(events, tx) {
    const hostnames = new Set<string>();
    const deviceUuids = new Set<string>();
    const jobIds = new Set<string>();
    for (const event of events) collectKeys(event as RecordedEvent & PlacementEvent, { hostnames, deviceUuids, jobIds });
    const batch = new PlacementBatch({
      hosts: (await selectByKeys<Record<string, unknown>>(tx, 'pl_hosts', 'hostname', hostnames)).map(hostRowFrom),
      devices: (await selectByKeys<Record<string, unknown>>(tx, 'pl_devices', 'device_uuid', deviceUuids)).map(deviceRowFrom),
      deployables: (await selectByKeys<Record<string, unknown>>(tx, 'pl_deployables', 'device_uuid', deviceUuids)).map(deployableRowFrom),
      jobs: (await selectByKeys<Record<string, unknown>>(tx, 'pl_program_jobs', 'job_id', jobIds)).map(programJobRowFrom),
    });
    for (const event of events) batch.apply(event);
    await flushPlacementBatch(tx, batch);
  },
};

function collectKeys(event: RecordedEvent & PlacementEvent, keys: { hostnames: Set<string>; deviceUuids: Set<string>; jobIds: Set<string> }): void {
  if ('jobId' in event.data) keys.jobIds.add(event.data.jobId);
  else if ('hostname' in event.data) keys.hostnames.add(event.data.hostname);
  if (event.type === 'inventory.DeviceDiscovered') keys.deviceUuids.add(event.data.device.uuid);
  else if ('deviceUuid' in event.data) keys.deviceUuids.add(event.data.deviceUuid);
}
