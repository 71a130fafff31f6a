import type { RecordedEvent } from '@ledger/eventstore';
import {
  type DeployableDescription,
  type DeviceCleaningEvent,
  type DeviceEvent,
  type HostFenceEvent,
  type HostInventoryEvent,
  type HostLivenessEvent,
  type HostProvisioningEvent,
  upcastDeviceHealthChanged,
} from '@ledger/inventory';
import { isShellProgram, type JobEvent, type JobParams, type ProgramParams } from '@ledger/jobs';
import { canonicalJson } from '@ledger/kernel';
import type { DeployableRow, DeviceRow, HostRow, ProgramJobRow } from './placement.rows';

export type PlacementEvent = HostInventoryEvent | HostLivenessEvent | HostProvisioningEvent | HostFenceEvent | DeviceEvent | JobEvent;

/**
 * One batch applied in memory to the rows it touches, then written back
 * (flush-placement-batch.ts). Every host and device fact is guarded by its
 * row's `position`; a program job's by its state (a finished job stays
 * finished), so a batch delivered twice changes nothing.
 */
export class PlacementBatch {
  readonly hosts: Map<string, HostRow>;
  readonly devices: Map<string, DeviceRow>;
  readonly deployables: Map<string, DeployableRow>;
  readonly jobs: Map<string, ProgramJobRow>;
  readonly changedHosts = new Set<string>();
  readonly changedDevices = new Set<string>();
  readonly changedDeployables = new Set<string>();
  readonly deletedDeployables = new Set<string>();
  readonly changedJobs = new Set<string>();

  constructor(rows: { hosts: readonly HostRow[]; devices: readonly DeviceRow[]; deployables: readonly DeployableRow[]; jobs: readonly ProgramJobRow[] }) {
    this.hosts = new Map(rows.hosts.map((row) => [row.hostname, row]));
    this.devices = new Map(rows.devices.map((row) => [row.device_uuid, row]));
    this.deployables = new Map(rows.deployables.map((row) => [row.deployable_uuid, row]));
    this.jobs = new Map(rows.jobs.map((row) => [row.job_id, row]));
  }

  apply(recorded: RecordedEvent): void {
    const event = recorded as RecordedEvent & PlacementEvent;
    switch (event.type) {
      case 'inventory.HostRegistered':
        this.hostRow(event.data.hostname);
        return;
      case 'inventory.AgentLost':
      case 'inventory.AgentBack':
        return this.onHost(event.data.hostname, event.position, (row) => {
          row.agent_lost = event.type === 'inventory.AgentLost' ? 1 : 0;
        });
      case 'inventory.HostProvisioningStarted':
      case 'inventory.HostProvisioned':
      case 'inventory.HostProvisionFailed':
        // Out of service from the start of a provisioning (its providers appear as it runs) until it ends well.
        return this.onHost(event.data.hostname, event.position, (row) => {
          row.out_of_service = event.type === 'inventory.HostProvisioned' ? 0 : 1;
        });
      case 'inventory.HostFenced':
      case 'inventory.HostUnfenced':
        return this.onHost(event.data.hostname, event.position, (row) => {
          row.fenced = event.type === 'inventory.HostFenced' ? 1 : 0;
        });
      case 'inventory.DeviceDiscovered': {
        const { hostname, device } = event.data;
        this.hostRow(hostname);
        return this.onDevice(device.uuid, event.position, (row) => {
          Object.assign(row, { hostname, removed: 0 });
          this.putDeployables(row, device.deployables, event.position);
        });
      }
      case 'inventory.DeviceChanged': {
        const { hostname, deviceUuid, description } = event.data;
        return this.onDevice(deviceUuid, event.position, (row) => {
          Object.assign(row, { hostname, removed: 0 });
          this.putDeployables(row, description.deployables, event.position);
        });
      }
      case 'inventory.DeviceRemoved':
        return this.onDevice(event.data.deviceUuid, event.position, (row) => {
          row.removed = 1;
          this.putDeployables(row, [], event.position);
        });
      case 'inventory.DeviceDisabled':
      case 'inventory.DeviceEnabled':
        return this.onDevice(event.data.deviceUuid, event.position, (row) => {
          row.disabled = event.type === 'inventory.DeviceDisabled' ? 1 : 0;
        });
      case 'inventory.DeviceHealthChanged':
        return this.onDevice(event.data.deviceUuid, event.position, (row) => {
          row.health = upcastDeviceHealthChanged(event.data).effect;
        });
      case 'inventory.DeviceCleanPending':
      case 'inventory.DeviceCleaningStarted':
      case 'inventory.DeviceCleaned':
      case 'inventory.DeviceCleanFailed':
      case 'inventory.DeviceCleanReleased':
        return this.onDevice(event.data.deviceUuid, event.position, (row) => {
          row.dirty_handles = canonicalJson(dirtyHandlesAfter(JSON.parse(row.dirty_handles) as Record<string, string>, event));
        });
      case 'jobs.JobRequested':
        return this.applyProgramRequested(event.data);
      case 'jobs.JobCompleted':
      case 'jobs.JobFailed':
        return this.applyJobFinished(event);
      default:
        return;
    }
  }

  /** Applies `change` to the host's row unless the event was applied before. */
  private onHost(hostname: string, position: number, change: (row: HostRow) => void): void {
    const row = this.hostRow(hostname);
    if (position <= row.position) return;
    change(row);
    row.position = position;
    this.changedHosts.add(hostname);
  }

  private applyProgramRequested(data: { jobId: string; hostname: string; kind: string; params: unknown }): void {
    // A shell load names the device, not a region: it reserves no deployable here (the provision workflow loads shells on hosts out of service).
    if (data.kind !== 'program' || this.jobs.has(data.jobId) || isShellProgram(data.params as JobParams)) return;
    const { deployableUuid } = data.params as ProgramParams;
    this.jobs.set(data.jobId, { job_id: data.jobId, hostname: data.hostname, deployable_uuid: deployableUuid, state: 'running', function_id: null, finished_position: null });
    this.changedJobs.add(data.jobId);
  }

  /** Only program jobs have rows; any other job's end is none of this projection's business. */
  private applyJobFinished(event: RecordedEvent & JobEvent & { type: 'jobs.JobCompleted' | 'jobs.JobFailed' }): void {
    const row = this.jobs.get(event.data.jobId);
    if (!row || row.state !== 'running') return;
    const functionId = event.type === 'jobs.JobCompleted' ? event.data.evidence.functionId : undefined;
    Object.assign(row, {
      state: event.type === 'jobs.JobCompleted' ? 'completed' : 'failed',
      function_id: typeof functionId === 'string' && functionId !== '' ? functionId : null,
      finished_position: event.position,
    });
    this.changedJobs.add(row.job_id);
  }

  /** Applies `change` to the device's row unless the event was applied before. */
  private onDevice(deviceUuid: string, position: number, change: (row: DeviceRow) => void): void {
    const row = this.devices.get(deviceUuid) ?? { device_uuid: deviceUuid, hostname: null, removed: 1, disabled: 0, health: 'none', dirty_handles: '{}', position: 0 };
    if (position <= row.position) return;
    change(row);
    row.position = position;
    this.devices.set(deviceUuid, row);
    this.changedDevices.add(deviceUuid);
  }

  /** The device's deployables become exactly `reported`; a deployable whose traits changed records where. */
  private putDeployables(device: DeviceRow, reported: readonly DeployableDescription[], position: number): void {
    const kept = new Set(reported.map((deployable) => deployable.uuid));
    for (const row of this.deployables.values()) {
      if (row.device_uuid === device.device_uuid && !kept.has(row.deployable_uuid)) this.deleteDeployable(row.deployable_uuid);
    }
    for (const deployable of reported) {
      const previous = this.deployables.get(deployable.uuid);
      const traits = canonicalJson(deployable.traits);
      this.deployables.set(deployable.uuid, {
        deployable_uuid: deployable.uuid,
        device_uuid: device.device_uuid,
        hostname: device.hostname!,
        name: deployable.name,
        rp_uuid: deployable.rpUuid,
        resource_class: deployable.resourceClass,
        count: deployable.count,
        traits,
        driver_name: deployable.driverName ?? null,
        traits_position: previous && previous.traits === traits ? previous.traits_position : position,
      });
      this.changedDeployables.add(deployable.uuid);
      this.deletedDeployables.delete(deployable.uuid);
    }
  }

  private deleteDeployable(deployableUuid: string): void {
    this.deployables.delete(deployableUuid);
    this.changedDeployables.delete(deployableUuid);
    this.deletedDeployables.add(deployableUuid);
  }

  /** The host's row, made when a host is first seen: a host stays listed (with no providers) once it had any. */
  private hostRow(hostname: string): HostRow {
    let row = this.hosts.get(hostname);
    if (!row) {
      row = { hostname, agent_lost: 0, out_of_service: 0, fenced: 0, position: 0 };
      this.hosts.set(hostname, row);
      this.changedHosts.add(hostname);
    }
    return row;
  }
}

/** The device's dirty handles after a cleaning event: the status each released handle is in until it is clean. */
function dirtyHandlesAfter(dirty: Record<string, string>, event: DeviceCleaningEvent): Record<string, string> {
  const next = { ...dirty };
  const status = { 'inventory.DeviceCleanPending': 'pending', 'inventory.DeviceCleaningStarted': 'cleaning', 'inventory.DeviceCleanFailed': 'clean-failed' }[event.type as string];
  for (const uuid of event.data.handleUuids) {
    if (status === undefined) delete next[uuid];
    else next[uuid] = status;
  }
  return next;
}
