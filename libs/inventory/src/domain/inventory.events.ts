import type { DomainEvent } from '@ledger/kernel';
import type { DeviceHealthChangedData } from './device-health';
import type { DeviceHealthCause } from './health-cause';
import type { AttachHandleSnapshot, DeviceDescription, DeviceSnapshot } from './device-snapshot';

/** Event type names of the inventory context. */
export const InventoryEventTypes = {
  HostRegistered: 'inventory.HostRegistered',
  DeviceDiscovered: 'inventory.DeviceDiscovered',
  DeviceChanged: 'inventory.DeviceChanged',
  DeviceRemoved: 'inventory.DeviceRemoved',
  AttachHandlesAdded: 'inventory.AttachHandlesAdded',
  AttachHandlesRemoved: 'inventory.AttachHandlesRemoved',
  DeviceDisabled: 'inventory.DeviceDisabled',
  DeviceEnabled: 'inventory.DeviceEnabled',
  AttachHandleClaimed: 'inventory.AttachHandleClaimed',
  AttachHandleReleased: 'inventory.AttachHandleReleased',
  AttributeCreated: 'inventory.AttributeCreated',
  AttributeDeleted: 'inventory.AttributeDeleted',
  DeviceHealthChanged: 'inventory.DeviceHealthChanged',
  RegionProgrammed: 'inventory.RegionProgrammed',
  RegionProgramFailed: 'inventory.RegionProgramFailed',
  ShellProgrammed: 'inventory.ShellProgrammed',
  VfsConfigured: 'inventory.VfsConfigured',
  AgentLost: 'inventory.AgentLost',
  AgentBack: 'inventory.AgentBack',
  DriverInstalled: 'inventory.DriverInstalled',
  DriverUninstalled: 'inventory.DriverUninstalled',
  DriverFailed: 'inventory.DriverFailed',
  HostProvisioningStarted: 'inventory.HostProvisioningStarted',
  HostProvisioned: 'inventory.HostProvisioned',
  HostProvisionFailed: 'inventory.HostProvisionFailed',
  HostFenced: 'inventory.HostFenced',
  DeviceFenced: 'inventory.DeviceFenced',
  DeviceUnfenced: 'inventory.DeviceUnfenced',
  HostUnfenced: 'inventory.HostUnfenced',
  PartitionCarveReserved: 'inventory.PartitionCarveReserved',
  PartitionCarveReleased: 'inventory.PartitionCarveReleased',
  PartitionCarved: 'inventory.PartitionCarved',
  PartitionDestroyed: 'inventory.PartitionDestroyed',
  PartitionIdle: 'inventory.PartitionIdle',
  PartitionReclaimClaimed: 'inventory.PartitionReclaimClaimed',
  PartitionReclaimReleased: 'inventory.PartitionReclaimReleased',
  DeviceCleanPending: 'inventory.DeviceCleanPending',
  DeviceCleaningStarted: 'inventory.DeviceCleaningStarted',
  DeviceCleaned: 'inventory.DeviceCleaned',
  DeviceCleanFailed: 'inventory.DeviceCleanFailed',
  DeviceCleanReleased: 'inventory.DeviceCleanReleased',
  DeviceHealthCheckPassed: 'inventory.DeviceHealthCheckPassed',
  DeviceDrainRequested: 'inventory.DeviceDrainRequested',
} as const;

export type InventoryEventType = (typeof InventoryEventTypes)[keyof typeof InventoryEventTypes];

/** Schema version of each event type's data (upcast older versions on read). */
export const INVENTORY_EVENT_SCHEMA_VERSIONS: Readonly<Record<InventoryEventType, number>> = {
  'inventory.HostRegistered': 1,
  'inventory.DeviceDiscovered': 1,
  'inventory.DeviceChanged': 1,
  'inventory.DeviceRemoved': 1,
  'inventory.AttachHandlesAdded': 1,
  'inventory.AttachHandlesRemoved': 1,
  'inventory.DeviceDisabled': 1,
  'inventory.DeviceEnabled': 1,
  'inventory.AttachHandleClaimed': 1,
  'inventory.AttachHandleReleased': 1,
  'inventory.AttributeCreated': 1,
  'inventory.AttributeDeleted': 1,
  'inventory.DeviceHealthChanged': 2,
  'inventory.RegionProgrammed': 1,
  'inventory.RegionProgramFailed': 1,
  'inventory.ShellProgrammed': 1,
  'inventory.VfsConfigured': 1,
  'inventory.AgentLost': 1,
  'inventory.AgentBack': 1,
  'inventory.DriverInstalled': 1,
  'inventory.DriverUninstalled': 1,
  'inventory.DriverFailed': 1,
  'inventory.HostProvisioningStarted': 1,
  'inventory.HostProvisioned': 1,
  'inventory.HostProvisionFailed': 1,
  'inventory.HostFenced': 1,
  'inventory.DeviceFenced': 1,
  'inventory.DeviceUnfenced': 1,
  'inventory.HostUnfenced': 1,
  'inventory.PartitionCarveReserved': 1,
  'inventory.PartitionCarveReleased': 1,
  'inventory.PartitionCarved': 1,
  'inventory.PartitionDestroyed': 1,
  'inventory.PartitionIdle': 1,
  'inventory.PartitionReclaimClaimed': 1,
  'inventory.PartitionReclaimReleased': 1,
  'inventory.DeviceCleanPending': 1,
  'inventory.DeviceCleaningStarted': 1,
  'inventory.DeviceCleaned': 1,
  'inventory.DeviceCleanFailed': 1,
  'inventory.DeviceCleanReleased': 1,
  'inventory.DeviceHealthCheckPassed': 1,
  'inventory.DeviceDrainRequested': 1,
};

/** Names of the `DeviceChanged.changedFields` entries. */
export type DeviceChangedField =
  | 'type'
  | 'vendorId'
  | 'productId'
  | 'subsystemVendorId'
  | 'subsystemProductId'
  | 'model'
  | 'boardInfo'
  | 'vendorBoardInfo'
  | 'driver'
  | 'numaNode'
  | 'capacity'
  /** What the device can be carved into, or what is carved, changed (docs/partitions.md). */
  | 'partitioning'
  /** A deployable appeared or vanished (by name). */
  | 'deployables'
  | 'deployables.resourceClass'
  | 'deployables.count'
  | 'deployables.traits'
  | 'deployables.driverName';

// ---- host stream `host-<hostname>`: facts derived from agent reports ----

/** The host's first report was accepted. */
export type HostRegistered = DomainEvent<
  'inventory.HostRegistered',
  { readonly hostname: string; readonly registeredAt: string }
>;

/** A device appeared in a report: its full snapshot, deployables and handles with their uuids. */
export type DeviceDiscovered = DomainEvent<
  'inventory.DeviceDiscovered',
  { readonly hostname: string; readonly device: DeviceSnapshot }
>;

/**
 * What the agent reports about a device changed. `description` is complete;
 * a deployable missing from it is gone together with its handles, and new
 * deployables get their handles from AttachHandlesAdded events that follow.
 */
export type DeviceChanged = DomainEvent<
  'inventory.DeviceChanged',
  {
    readonly hostname: string;
    readonly deviceUuid: string;
    readonly description: DeviceDescription;
    readonly changedFields: readonly DeviceChangedField[];
  }
>;

/** A device is no longer reported; its deployables and handles go with it. */
export type DeviceRemoved = DomainEvent<'inventory.DeviceRemoved', { readonly hostname: string; readonly deviceUuid: string }>;

export type AttachHandlesAdded = DomainEvent<
  'inventory.AttachHandlesAdded',
  {
    readonly hostname: string;
    readonly deviceUuid: string;
    readonly deployableUuid: string;
    readonly handles: readonly AttachHandleSnapshot[];
  }
>;

export type AttachHandlesRemoved = DomainEvent<
  'inventory.AttachHandlesRemoved',
  {
    readonly hostname: string;
    readonly deviceUuid: string;
    readonly deployableUuid: string;
    readonly handleUuids: readonly string[];
  }
>;

export type HostInventoryEvent =
  | HostRegistered
  | DeviceDiscovered
  | DeviceChanged
  | DeviceRemoved
  | AttachHandlesAdded
  | AttachHandlesRemoved;

// ---- device stream `device-<uuid>`: facts operators and binds cause ----

/** An operator put the device in maintenance: it stays known but is not offered. */
export type DeviceDisabled = DomainEvent<
  'inventory.DeviceDisabled',
  { readonly deviceUuid: string; readonly reason: string | null }
>;

export type DeviceEnabled = DomainEvent<'inventory.DeviceEnabled', { readonly deviceUuid: string }>;

export type DeviceMaintenanceEvent = DeviceDisabled | DeviceEnabled;

/** Facts of one claim: which handle of which deployable an accelerator request holds. */
export interface AttachHandleClaim {
  readonly deviceUuid: string;
  readonly deployableUuid: string;
  readonly handleUuid: string;
  readonly arqUuid: string;
  /** The bind (workflow) that holds it; absent on claims recorded before workflows. */
  readonly bindId?: string;
  /** The request's project; absent on claims recorded before drains named projects. */
  readonly projectId?: string;
  /** The partition the handle is (docs/partitions.md): named on the claim so the timeline and who-held say which slice; absent for a whole device's handle. */
  readonly partition?: PartitionRef;
}

/** A carved partition as a claim names it: its own handle (MIG device UUID, mdev UUID, region id) and where its agent can destroy it. */
export interface PartitionRef {
  readonly handle: string;
  readonly hostname: string;
  readonly pciAddress: string;
}

/** A bind took a free attach handle of the device for an accelerator request. */
export type AttachHandleClaimed = DomainEvent<'inventory.AttachHandleClaimed', AttachHandleClaim>;

/** An unbind, a delete, a failed bind or a fence gave the handle back; `reason` is the fence's, absent otherwise. */
export type AttachHandleReleased = DomainEvent<'inventory.AttachHandleReleased', AttachHandleClaim & { readonly reason?: string }>;

export type AttachHandleClaimEvent = AttachHandleClaimed | AttachHandleReleased;

/**
 * The agent judged the device's health differently from what was recorded
 * last (a device never recorded counts as `ok`), or the health policy judged
 * it more severely, or a recovery under way was interrupted, or it came back
 * (`recoveredBy`: enough healthy checks, or an operator's clear).
 * `observedAt` is when the ledger received the heartbeat (or the clear):
 * agents' clocks are not trusted. `effect`, `recovery` and `policyVersion`
 * are the health policy's judgment (docs/operations.md, "Health policy").
 * Schema 2; schema 1 (level and reason only) is read through
 * `upcastDeviceHealthChanged`.
 */
export type DeviceHealthChanged = DomainEvent<'inventory.DeviceHealthChanged', DeviceHealthChangedData>;

/**
 * A healthy report while the device recovers by itself: `healthyChecks` in a
 * row so far, of the `of` its recovery asks. The last one is not recorded:
 * DeviceHealthChanged to `ok` is.
 */
export type DeviceHealthCheckPassed = DomainEvent<
  'inventory.DeviceHealthCheckPassed',
  { readonly deviceUuid: string; readonly healthyChecks: number; readonly of: number; readonly observedAt: string; readonly policyVersion: string | null }
>;

/** Who held a device when it was drained: the request, its project (null for a claim recorded without it) and the attach handle. */
export interface DrainedHolder {
  readonly arqUuid: string;
  readonly projectId: string | null;
  readonly deployableUuid: string;
  readonly handleUuid: string;
}

/**
 * The health policy drained the device while requests held it: their
 * projects (named per holder) and the operators are asked to move the
 * work off. Nothing is released: the holders decide when. Carried by the
 * Kafka relay on the inventory topic (docs/kafka.md).
 */
export type DeviceDrainRequested = DomainEvent<
  'inventory.DeviceDrainRequested',
  {
    readonly deviceUuid: string;
    readonly holders: readonly DrainedHolder[];
    readonly cause: DeviceHealthCause | null;
    readonly reason: string | null;
    readonly policyVersion: string;
    readonly requestedAt: string;
  }
>;

export type DeviceHealthEvent = DeviceHealthChanged | DeviceHealthCheckPassed | DeviceDrainRequested;

// ---- device stream `device-<uuid>`: what finished program and configure-vfs jobs did to the hardware ----

/** Who asked for the job that changed the device: its requester, and the workflow when one sent it (null otherwise). */
export interface DeviceJobRequester {
  readonly user: string;
  readonly project: string | null;
  readonly workflow: string | null;
}

/** Which job a device fact comes from: idempotency key and audit trail. */
interface DeviceJobFact {
  readonly deviceUuid: string;
  readonly hostname: string;
  readonly jobId: string;
  readonly requestedBy: DeviceJobRequester;
}

/**
 * A partial-reconfiguration region (a deployable) holds a new function, read
 * back by the agent. `bitstreamId` is the registered bitstream the job named
 * (null when it named an image only); `region` the region's name on a
 * multi-region device (null when the device is one region).
 */
export type RegionProgrammed = DomainEvent<
  'inventory.RegionProgrammed',
  DeviceJobFact & {
    readonly deployableUuid: string;
    readonly region: string | null;
    readonly bitstreamId: string | null;
    readonly sha256: string | null;
    readonly functionId: string;
    readonly previousFunctionId: string | null;
    readonly programmedAt: string;
  }
>;

/**
 * Loading a region failed. `regionHolds` is what the agent read back
 * afterwards (`functionId` null: blank), or null when it could not tell
 * (timed out, unreadable); `deviceState` is the agent's own words.
 */
export type RegionProgramFailed = DomainEvent<
  'inventory.RegionProgramFailed',
  DeviceJobFact & {
    readonly deployableUuid: string;
    readonly region: string | null;
    readonly bitstreamId: string | null;
    readonly code: string;
    readonly reason: string;
    readonly regionHolds: { readonly functionId: string | null } | null;
    readonly deviceState: string | null;
    readonly failedAt: string;
  }
>;

/** The static region (shell) was loaded and its interface id read back: the PR bitstreams it takes. */
export type ShellProgrammed = DomainEvent<
  'inventory.ShellProgrammed',
  DeviceJobFact & {
    readonly bitstreamId: string | null;
    readonly sha256: string | null;
    readonly interfaceId: string;
    readonly previousInterfaceId: string | null;
    readonly programmedAt: string;
  }
>;

/** The physical function now has `numVfs` SR-IOV VFs (`previousNumVfs` as the agent read it before, null when it did not say). */
export type VfsConfigured = DomainEvent<
  'inventory.VfsConfigured',
  DeviceJobFact & { readonly numVfs: number; readonly previousNumVfs: number | null; readonly configuredAt: string }
>;

export type DeviceJobEvent = RegionProgrammed | RegionProgramFailed | ShellProgrammed | VfsConfigured;

/**
 * The device's host was fenced (HostFenced): every hold on it was released
 * with `reason` in the same append, and nothing on it can be claimed until
 * DeviceUnfenced. Recorded on the device stream because that stream decides
 * claims: a bind racing the fence is refused by the stream itself.
 */
export type DeviceFenced = DomainEvent<
  'inventory.DeviceFenced',
  { readonly deviceUuid: string; readonly hostname: string; readonly reason: string; readonly fencedAt: string }
>;

/** The device's host was unfenced: it is offered again. */
export type DeviceUnfenced = DomainEvent<'inventory.DeviceUnfenced', { readonly deviceUuid: string; readonly hostname: string }>;

export type DeviceFenceEvent = DeviceFenced | DeviceUnfenced;

// ---- device stream `device-<uuid>`: partitions carved on demand and given back (docs/partitions.md) ----

/** The slices a partition takes: first slice and how many. */
export interface PartitionSpan {
  readonly profile: string;
  readonly start: number;
  readonly slices: number;
}

/**
 * A bind set aside slices of the device to carve a partition of `profile`:
 * no other bind carves there until the carve is recorded or given back.
 * Decided on the device's stream, so two binds never carve one span.
 */
export type PartitionCarveReserved = DomainEvent<
  'inventory.PartitionCarveReserved',
  PartitionSpan & { readonly deviceUuid: string; readonly bindId: string; readonly arqUuid: string; readonly reservedAt: string }
>;

/** The slices set aside were given back without a partition (the carve failed, or its bind was undone before it). */
export type PartitionCarveReleased = DomainEvent<
  'inventory.PartitionCarveReleased',
  PartitionSpan & { readonly deviceUuid: string; readonly bindId: string }
>;

/**
 * A carve job made a partition: its own handle (MIG device UUID, mdev
 * UUID), and, for MIG, its GPU and compute instance ids. `bindId` is the
 * bind that carved it on demand (its slices reserved until now), null for
 * a carve no bind asked for.
 */
export type PartitionCarved = DomainEvent<
  'inventory.PartitionCarved',
  DeviceJobFact &
    PartitionSpan & {
      readonly handle: string;
      readonly gpuInstanceId: number | null;
      readonly computeInstanceId: number | null;
      readonly bindId: string | null;
      readonly carvedAt: string;
    }
>;

/** A destroy job gave the partition's slices back to the device: a bind undoing its carve, or the reclaim of an idle partition. */
export type PartitionDestroyed = DomainEvent<
  'inventory.PartitionDestroyed',
  DeviceJobFact & { readonly handle: string; readonly reason: 'compensation' | 'reclaimed' | 'operator'; readonly destroyedAt: string }
>;

/**
 * A partition carved on demand is free again (its claim released, its clean
 * done when its type cleans), and LEDGER_PARTITION_RECLAIM says to reclaim
 * it after `idleMs`: the reclaim workflow of idle period `idleCount` starts
 * here. `afterClean`: released to cleaning; the idle period starts with a
 * second PartitionIdle once it is cleaned.
 */
export type PartitionIdle = DomainEvent<
  'inventory.PartitionIdle',
  PartitionRef & {
    readonly deviceUuid: string;
    readonly handleUuid: string;
    readonly idleCount: number;
    readonly idleMs: number;
    readonly afterClean: boolean;
  }
>;

/** A reclaim took the idle partition's handle, so no bind can claim it while its destroy job runs. */
export type PartitionReclaimClaimed = DomainEvent<
  'inventory.PartitionReclaimClaimed',
  { readonly deviceUuid: string; readonly handle: string; readonly handleUuid: string; readonly reclaimId: string; readonly idleCount: number; readonly claimedAt: string }
>;

/** The reclaim's destroy failed: the partition is free and offered again. */
export type PartitionReclaimReleased = DomainEvent<
  'inventory.PartitionReclaimReleased',
  { readonly deviceUuid: string; readonly handle: string; readonly handleUuid: string; readonly reclaimId: string }
>;

export type PartitionReclaimEvent = PartitionIdle | PartitionReclaimClaimed | PartitionReclaimReleased;

export type DevicePartitionEvent = PartitionCarveReserved | PartitionCarveReleased | PartitionCarved | PartitionDestroyed | PartitionReclaimEvent;


/** Why handles went to cleaning: a tenant's release, the unfence of a host that released them, an operator's retry. */
export type CleaningCause = 'released' | 'unfenced' | 'retry';

/**
 * Handles released by a fence: dirty, and not claimable, but not cleaned
 * yet (the host's agent may be gone); DeviceUnfenced starts their cleaning.
 */
export type DeviceCleanPending = DomainEvent<
  'inventory.DeviceCleanPending',
  { readonly deviceUuid: string; readonly handleUuids: readonly string[]; readonly reason: string }
>;

/**
 * Released handles go to cleaning in the same append as their release (or
 * as the unfence, or an operator's retry): no claim can take them before
 * DeviceCleaned. `attempt` counts the device's cleanings (1, 2, …): the
 * clean job is the attempt's, and a late outcome of an older one changes nothing.
 */
export type DeviceCleaningStarted = DomainEvent<
  'inventory.DeviceCleaningStarted',
  { readonly deviceUuid: string; readonly attempt: number; readonly handleUuids: readonly string[]; readonly cause: CleaningCause; readonly arqUuids: readonly string[] }
>;

/** What a clean job says it ran: each step (`function-level reset`, `gpu reset`, `region reprogrammed`…) and its result. */
export interface CleanStep {
  readonly step: string;
  readonly result: string;
}

interface CleanOutcome {
  readonly deviceUuid: string;
  readonly attempt: number;
  readonly handleUuids: readonly string[];
  readonly jobId: string;
  readonly ran: readonly CleanStep[];
}

/** The clean job of `attempt` completed: its handles are offered again. */
export type DeviceCleaned = DomainEvent<'inventory.DeviceCleaned', CleanOutcome & { readonly cleanedAt: string }>;

/** The clean job of `attempt` failed (or timed out): its handles stay reserved, `clean-failed`, until an operator retries or releases them. */
export type DeviceCleanFailed = DomainEvent<
  'inventory.DeviceCleanFailed',
  CleanOutcome & { readonly code: string; readonly reason: string; readonly failedAt: string }
>;

/** An operator offered clean-failed handles again without a clean (they know the device is clean, or accept it as it is). */
export type DeviceCleanReleased = DomainEvent<
  'inventory.DeviceCleanReleased',
  { readonly deviceUuid: string; readonly handleUuids: readonly string[]; readonly by: string; readonly reason: string | null }
>;

export type DeviceCleaningEvent = DeviceCleanPending | DeviceCleaningStarted | DeviceCleaned | DeviceCleanFailed | DeviceCleanReleased;

export type DeviceEvent =
  | DeviceMaintenanceEvent
  | AttachHandleClaimEvent
  | DeviceHealthEvent
  | DeviceJobEvent
  | DeviceFenceEvent
  | DevicePartitionEvent
  | DeviceCleaningEvent;

// ---- host stream `host-<hostname>`: the agent's liveness (heartbeats themselves are telemetry, never events) ----

/** Neither a report nor a heartbeat arrived for the lost-after window; `lastSeenAt` is the last of them. */
export type AgentLost = DomainEvent<
  'inventory.AgentLost',
  { readonly hostname: string; readonly lastSeenAt: string; readonly detectedAt: string }
>;

/** The first report or heartbeat after AgentLost; `lostAt` is that event's `detectedAt`. */
export type AgentBack = DomainEvent<'inventory.AgentBack', { readonly hostname: string; readonly lostAt: string; readonly backAt: string }>;

export type HostLivenessEvent = AgentLost | AgentBack;

// ---- host stream `host-<hostname>`: the outcome of driver jobs (install / uninstall / update playbooks) ----

/** `ansible-playbook`'s PLAY RECAP for the host; null when no playbook result came (the job timed out). */
export interface PlaybookRecap {
  readonly ok: number;
  readonly changed: number;
  readonly failed: number;
  readonly unreachable: number;
  readonly skipped: number;
}

export type DriverOperation = 'install' | 'uninstall' | 'update';

/** An install or update job completed; `version` is what the agent read back, else what the job asked for (null: the driver's default). */
export type DriverInstalled = DomainEvent<
  'inventory.DriverInstalled',
  { readonly hostname: string; readonly driver: string; readonly version: string | null; readonly recap: PlaybookRecap | null; readonly jobId: string }
>;

export type DriverUninstalled = DomainEvent<
  'inventory.DriverUninstalled',
  { readonly hostname: string; readonly driver: string; readonly recap: PlaybookRecap | null; readonly jobId: string }
>;

/** A driver job failed or timed out; the driver is as it was before, as far as the playbook could restore it. */
export type DriverFailed = DomainEvent<
  'inventory.DriverFailed',
  {
    readonly hostname: string;
    readonly driver: string;
    readonly operation: DriverOperation;
    readonly recap: PlaybookRecap | null;
    readonly reason: string;
    readonly jobId: string;
  }
>;

export type HostDriverEvent = DriverInstalled | DriverUninstalled | DriverFailed;

// ---- host stream `host-<hostname>`: an operator brings the host into service (the provision workflow) ----

/** A provision workflow (`provisionId` is its id) began bringing the host into service; until it ends the host is not in service. */
export type HostProvisioningStarted = DomainEvent<
  'inventory.HostProvisioningStarted',
  { readonly hostname: string; readonly provisionId: string; readonly startedAt: string }
>;

/** Every step of the provisioning was done: the host is in service. */
export type HostProvisioned = DomainEvent<'inventory.HostProvisioned', { readonly hostname: string; readonly provisionId: string; readonly provisionedAt: string }>;

/** The provisioning stopped (a step was given up, or an operator cancelled it): the host stays out of service; `code` and `reason` say why. */
export type HostProvisionFailed = DomainEvent<
  'inventory.HostProvisionFailed',
  { readonly hostname: string; readonly provisionId: string; readonly code: string; readonly reason: string; readonly failedAt: string }
>;

export type HostProvisioningEvent = HostProvisioningStarted | HostProvisioned | HostProvisionFailed;

// ---- attribute stream `attribute-<uuid>`: attributes an operator sets on a deployable ----

/** An operator set `key` = `value` on a deployable (Cyborg's POST /v2/attributes). */
export type AttributeCreated = DomainEvent<
  'inventory.AttributeCreated',
  { readonly uuid: string; readonly deployableUuid: string; readonly key: string; readonly value: string; readonly createdAt: string }
>;

export type AttributeDeleted = DomainEvent<'inventory.AttributeDeleted', { readonly uuid: string; readonly deployableUuid: string }>;

export type AttributeEvent = AttributeCreated | AttributeDeleted;

export type InventoryEvent = HostInventoryEvent | DeviceEvent | AttributeEvent | HostLivenessEvent | HostDriverEvent | HostProvisioningEvent | HostFenceEvent;

/** Every inventory event type, for processor `handles` lists. */
export const INVENTORY_EVENT_TYPES: readonly InventoryEventType[] = Object.values(InventoryEventTypes);

// ---- host stream `host-<hostname>`: an operator (or the auto-fence monitor) takes a dead host out of use ----

/**
 * The host is fenced: every hold on its devices is released with `reason`,
 * its providers are reserved in Placement and nothing on it is claimable
 * until HostUnfenced. `by` is the operator's user id, or `auto-fence`.
 */
export type HostFenced = DomainEvent<
  'inventory.HostFenced',
  { readonly hostname: string; readonly reason: string; readonly by: string; readonly at: string }
>;

/** The operator let a fenced host be used again (once cleaning exists, after its devices were cleaned). */
export type HostUnfenced = DomainEvent<
  'inventory.HostUnfenced',
  { readonly hostname: string; readonly fencedAt: string; readonly by: string; readonly at: string }
>;

export type HostFenceEvent = HostFenced | HostUnfenced;
