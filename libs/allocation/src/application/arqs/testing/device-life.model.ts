import {
  type DeviceCommand,
  deviceDecider,
  type DeviceEvent,
  type DeviceState,
  type HostFenceCommand,
  hostFenceDecider,
  type HostFenceState,
} from '@ledger/inventory';
import { type Decider, type DomainEvent, foldEvents, isLedgerError } from '@ledger/kernel';
import { initialQuotaState } from '@ledger/quota';
import { arqDecider, type ArqCommand } from '../../../domain/arq.decider';
import type { ArqEvent } from '../../../domain/arq.events';
import type { ArqState } from '../../../domain/arq.state';
import type { InventoryAttachHandle } from '../../../domain/attach-handle-info';
import { decideBindAtOnce } from '../bind-arqs/bind-at-once.decision';

/**
 * What the device-life property (device-life.property.spec.ts) drives: the
 * ledger's writers over a small fleet, each step the decision the ledger
 * makes for it, run on the deciders' folded states instead of streams. The
 * second half of an unbind, a delete or a fence (the holds given back, each
 * device fenced) is a separate write in the ledger, made at once by the
 * handler or after a crash by a reactor: here it waits in `pending` until a
 * `settle` step runs it, so the property sees every state in between. A
 * device whose type cleans gets its released handles back only through a
 * clean job's outcome or an operator's release.
 */
export type DeviceLifeStep =
  | { readonly kind: 'create'; readonly arq: number }
  | { readonly kind: 'bind'; readonly arq: number; readonly device: number }
  | { readonly kind: 'unbind'; readonly arq: number }
  | { readonly kind: 'delete'; readonly arq: number }
  | { readonly kind: 'fence'; readonly host: number }
  | { readonly kind: 'unfence'; readonly host: number }
  | { readonly kind: 'agentLost'; readonly host: number }
  | { readonly kind: 'agentBack'; readonly host: number }
  | { readonly kind: 'health'; readonly device: number; readonly health: 'ok' | 'failed' }
  /** A clean job's outcome reaches the ledger: of the attempt in force, or (`stale`) of the one before, late. */
  | { readonly kind: 'cleanOutcome'; readonly device: number; readonly cleaned: boolean; readonly stale: boolean }
  | { readonly kind: 'retryClean'; readonly device: number }
  | { readonly kind: 'releaseClean'; readonly device: number }
  | { readonly kind: 'settle'; readonly pick: number };

/** A write the ledger makes after the step that called for it. */
export type PendingWrite =
  | { readonly kind: 'release'; readonly arqUuid: string; readonly deviceUuid: string }
  /** The host's fence (or unfence) as it stands when it runs, on one of its devices: what the fence's durable half does. */
  | { readonly kind: 'follow-fence'; readonly hostname: string; readonly deviceUuid: string };

export interface ModelDevice {
  readonly uuid: string;
  readonly hostname: string;
  readonly deployableUuid: string;
  readonly handles: readonly InventoryAttachHandle[];
  /** Its type is one LEDGER_CLEAN_DEVICE_TYPES names: what a tenant or a fence releases is cleaned before it is offered again. */
  readonly cleans: boolean;
  state: DeviceState;
  /** Every event its stream recorded, in order. */
  readonly events: DeviceEvent[];
}

export interface ModelHost {
  readonly hostname: string;
  fence: HostFenceState;
  /** The agent is lost: Placement's read model says so, and a bind to the host is refused before it decides anything. */
  agentLost: boolean;
}

export interface DeviceLifeFleet {
  readonly hosts: ModelHost[];
  readonly devices: ModelDevice[];
  readonly arqs: { readonly uuid: string; state: ArqState }[];
  readonly pending: PendingWrite[];
  /** Steps run so far: the clock of every command. */
  tick: number;
}

export const HOSTS = 2;
/** Per host: a NIC-like device with two VFs, a GPU-like one with one function. */
export const HANDLES_PER_DEVICE = [2, 1];
/** Whether device `d` of host `h` cleans: the VFs everywhere, the GPU on host 0 only (a type not cleaned is offered at its release). */
const cleans = (h: number, d: number) => d === 0 || h === 0;
export const ARQS = 6;
export const PROJECT = 'tenant-life';

const uuidOf = (kind: number, a: number, b = 0) => `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${(a * 16 + b).toString(16).padStart(12, '0')}`;

export function newFleet(): DeviceLifeFleet {
  const hosts: ModelHost[] = [];
  const devices: ModelDevice[] = [];
  for (let h = 0; h < HOSTS; h++) {
    const hostname = `compute-life-${h}`;
    const own = HANDLES_PER_DEVICE.map((count, d): ModelDevice => {
      const index = h * HANDLES_PER_DEVICE.length + d;
      const handles = Array.from({ length: count }, (_, v) => ({
        uuid: uuidOf(3, index, v),
        kind: count > 1 ? ('VF' as const) : ('PCI' as const),
        address: `0000:${(0x10 + index).toString(16)}:00.${v}`,
        physicalNetwork: null,
        mdevType: null,
        slot: null,
      }));
      return { uuid: uuidOf(1, index), hostname, deployableUuid: uuidOf(2, index), handles, cleans: cleans(h, d), state: deviceDecider.initialState(), events: [] };
    });
    devices.push(...own);
    hosts.push({ hostname, fence: { hostname, devices: new Set(own.map((device) => device.uuid)), fenced: null }, agentLost: false });
  }
  const arqs = Array.from({ length: ARQS }, (_, a) => ({ uuid: uuidOf(4, a), state: arqDecider.initialState() }));
  return { hosts, devices, arqs, pending: [], tick: 0 };
}

const at = (fleet: DeviceLifeFleet) => new Date(Date.UTC(2026, 10, 29) + fleet.tick * 1000).toISOString();

/** Runs a decider's command on a state; a refusal (a typed 4xx) appends nothing and is returned as such. */
function run<C, S, E extends DomainEvent>(decider: Decider<C, S, E>, command: C, state: S): { state: S; events: readonly E[] } | { refused: string } {
  try {
    const events = decider.decide(command, state);
    return { state: foldEvents(decider, state, events), events };
  } catch (error) {
    if (isLedgerError(error) && error.status < 500) return { refused: error.code };
    throw error;
  }
}

function onDevice(device: ModelDevice, command: DeviceCommand): string | null {
  const outcome = run(deviceDecider, command, device.state);
  if ('refused' in outcome) return outcome.refused;
  device.state = outcome.state;
  device.events.push(...outcome.events);
  return null;
}

function onArq(arq: { state: ArqState }, command: ArqCommand): readonly ArqEvent[] | string {
  const outcome = run(arqDecider, command, arq.state);
  if ('refused' in outcome) return outcome.refused;
  arq.state = outcome.state;
  return outcome.events;
}

function onHost(host: ModelHost, command: HostFenceCommand): boolean {
  const outcome = run(hostFenceDecider, command, host.fence);
  if ('refused' in outcome) return false;
  host.fence = outcome.state as HostFenceState;
  return true;
}

/**
 * Whether a bind of a new request to the device would be accepted now, as
 * the ledger decides it: the bind handler's check of Placement's read model
 * (agent lost, host fenced), then the bind at once over the device's state.
 * Decides on copies; the fleet is left as it was. Returns the handle it would
 * take, or the refusal's code. Without `gate`, the device's own decision
 * alone: what a bind that passed the check before a fence or a loss was
 * recorded meets.
 */
export function probeClaim(fleet: DeviceLifeFleet, device: ModelDevice, { gate }: { gate: boolean }): { handleUuid: string } | { refused: string } {
  const host = fleet.hosts.find((candidate) => candidate.hostname === device.hostname)!;
  if (gate && host.agentLost) return { refused: 'INVENTORY.AGENT_LOST' };
  if (gate && host.fence.fenced) return { refused: 'INVENTORY.HOST_FENCED' };
  const probe = '00000000-0000-4000-8000-0000000000ff';
  const created = run(arqDecider, createCommand(probe, fleet), arqDecider.initialState());
  if ('refused' in created) throw new Error(`the probe request was refused: ${created.refused}`);
  try {
    const events = decideBindAtOnce(bindCommand(fleet, probe, device), device.handles, { arq: created.state, device: device.state, quota: initialQuotaState() });
    const claimed = events.device.find((event) => event.type === 'inventory.AttachHandleClaimed');
    return { handleUuid: (claimed!.data as { handleUuid: string }).handleUuid };
  } catch (error) {
    if (isLedgerError(error) && error.status < 500) return { refused: error.code };
    throw error;
  }
}

const createCommand = (uuid: string, fleet: DeviceLifeFleet): ArqCommand => ({
  type: 'CreateArq',
  uuid,
  projectId: PROJECT,
  deviceProfileUuid: '00000000-0000-4000-8000-00000000d0d0',
  deviceProfileName: 'life-dp',
  groupId: 0,
  resourceClass: 'CUSTOM_LIFE',
  requiredTraits: [],
  forbiddenTraits: [],
  at: at(fleet),
});

const bindCommand = (fleet: DeviceLifeFleet, arqUuid: string, device: ModelDevice) => ({
  start: {
    type: 'StartBind' as const,
    uuid: arqUuid,
    hostname: device.hostname,
    deviceRpUuid: device.deployableUuid,
    instanceUuid: `00000000-0000-4000-8000-${fleet.tick.toString(16).padStart(12, '0')}`,
    deviceUuid: device.uuid,
    deployableUuid: device.deployableUuid,
    at: at(fleet),
  },
  bindId: `bind-${fleet.tick}`,
  projectId: PROJECT,
  capacity: {},
});

/** A bind that needs no hardware, as BindAtOnceDecision records it: all three streams, or, refused by the device, the request started and failed. */
function bind(fleet: DeviceLifeFleet, arq: { uuid: string; state: ArqState }, device: ModelDevice): void {
  const host = fleet.hosts.find((candidate) => candidate.hostname === device.hostname)!;
  if (host.agentLost || host.fence.fenced) return;
  const command = bindCommand(fleet, arq.uuid, device);
  try {
    const events = decideBindAtOnce(command, device.handles, { arq: arq.state, device: device.state, quota: initialQuotaState() });
    arq.state = foldEvents(arqDecider, arq.state, events.arq);
    device.state = foldEvents(deviceDecider, device.state, events.device);
    device.events.push(...events.device);
  } catch (error) {
    if (!isLedgerError(error) || error.status >= 500) throw error;
    const started = onArq(arq, command.start);
    if (typeof started === 'string' || started.length === 0) return;
    onArq(arq, { type: 'FailBind', uuid: arq.uuid, bindId: command.bindId, code: error.code, reason: error.message, at: at(fleet) });
  }
}

/** Runs one step of the sequence. */
export function runStep(fleet: DeviceLifeFleet, step: DeviceLifeStep): void {
  fleet.tick++;
  switch (step.kind) {
    case 'create':
      return void onArq(fleet.arqs[step.arq], createCommand(fleet.arqs[step.arq].uuid, fleet));
    case 'bind':
      return bind(fleet, fleet.arqs[step.arq], fleet.devices[step.device]);
    case 'unbind':
    case 'delete': {
      const arq = fleet.arqs[step.arq];
      const binding = arq.state.status === 'live' ? arq.state.binding : null;
      const command: ArqCommand =
        step.kind === 'unbind' ? { type: 'UnbindArq', uuid: arq.uuid, at: at(fleet) } : { type: 'DeleteArq', uuid: arq.uuid, mayDeleteBound: true, at: at(fleet) };
      const events = onArq(arq, command);
      if (typeof events !== 'string' && events.length > 0 && binding) fleet.pending.push({ kind: 'release', arqUuid: arq.uuid, deviceUuid: binding.deviceUuid });
      return;
    }
    case 'fence':
    case 'unfence': {
      const host = fleet.hosts[step.host];
      const command: HostFenceCommand =
        step.kind === 'fence'
          ? { type: 'FenceHost', hostname: host.hostname, reason: `fence at ${fleet.tick}`, by: 'operator', at: at(fleet) }
          : { type: 'UnfenceHost', hostname: host.hostname, by: 'operator', at: at(fleet) };
      // Fencing a fenced host appends nothing but completes the fence still: the handler reaches every device either way.
      if (!onHost(host, command)) return;
      for (const deviceUuid of host.fence.devices) fleet.pending.push({ kind: 'follow-fence', hostname: host.hostname, deviceUuid });
      return;
    }
    case 'agentLost':
    case 'agentBack':
      fleet.hosts[step.host].agentLost = step.kind === 'agentLost';
      return;
    case 'health': {
      const device = fleet.devices[step.device];
      return void onDevice(device, { type: 'RecordDeviceHealth', deviceUuid: device.uuid, health: step.health, reason: step.health === 'ok' ? null : 'XID 79', observedAt: at(fleet) });
    }
    case 'cleanOutcome':
      return cleanOutcome(fleet, fleet.devices[step.device], step);
    case 'retryClean':
      return void onDevice(fleet.devices[step.device], { type: 'RetryClean', deviceUuid: fleet.devices[step.device].uuid });
    case 'releaseClean':
      return void onDevice(fleet.devices[step.device], { type: 'ReleaseClean', deviceUuid: fleet.devices[step.device].uuid, by: 'operator', reason: 'inspected by hand' });
    case 'settle':
      if (fleet.pending.length > 0) runPending(fleet, fleet.pending.splice(step.pick % fleet.pending.length, 1)[0]);
  }
}

/** The outcome of the device's clean job, as the job-facts reactor records it; a lost agent runs no job, so nothing comes. */
function cleanOutcome(fleet: DeviceLifeFleet, device: ModelDevice, step: { cleaned: boolean; stale: boolean }): void {
  if (fleet.hosts.find((host) => host.hostname === device.hostname)!.agentLost) return;
  const attempts = Object.values(device.state.cleaning?.handles ?? {}).flatMap((entry) => (entry.status === 'cleaning' && entry.attempt !== null ? [entry.attempt] : []));
  if (attempts.length === 0) return;
  const attempt = Math.max(...attempts) - (step.stale ? 1 : 0);
  if (attempt < 1) return;
  const job = { deviceUuid: device.uuid, attempt, jobId: uuidOf(5, fleet.tick), ran: [{ step: 'function-level reset', result: step.cleaned ? 'ok' : 'timed out' }] };
  onDevice(
    device,
    step.cleaned
      ? { type: 'RecordCleaned', ...job, cleanedAt: at(fleet) }
      : { type: 'RecordCleanFailed', ...job, code: 'CLEAN.TIMEOUT', reason: 'reset timed out', failedAt: at(fleet) },
  );
}

/** Runs every write still pending, oldest first: the fleet after the handlers finished or the reactors caught up. */
export function settleAll(fleet: DeviceLifeFleet): void {
  while (fleet.pending.length > 0) runPending(fleet, fleet.pending.shift()!);
}

function runPending(fleet: DeviceLifeFleet, write: PendingWrite): void {
  const device = fleet.devices.find((candidate) => candidate.uuid === write.deviceUuid)!;
  if (write.kind === 'release') return void onDevice(device, { type: 'ReleaseAttachHandle', deviceUuid: device.uuid, arqUuid: write.arqUuid, clean: device.cleans });
  const { hostname, fenced } = fleet.hosts.find((host) => host.hostname === write.hostname)!.fence;
  onDevice(
    device,
    fenced
      ? { type: 'FenceDevice', deviceUuid: device.uuid, hostname: hostname!, reason: fenced.reason, fencedAt: fenced.at, clean: device.cleans }
      : { type: 'UnfenceDevice', deviceUuid: device.uuid, hostname: hostname! },
  );
}
