import fc from 'fast-check';
import type { DeviceEvent } from '@ledger/inventory';
import { ARQS, type DeviceLifeFleet, type DeviceLifeStep, HOSTS, HANDLES_PER_DEVICE, type ModelDevice, newFleet, probeClaim, runStep, settleAll } from './testing/device-life.model';

/** Sequences per run: a few hundred in `npm test`, `DEVICE_LIFE_RUNS=1000` for the long mode (docs/testing.md). */
const RUNS = Number(process.env.DEVICE_LIFE_RUNS ?? 300);
const SEED = Number(process.env.DEVICE_LIFE_SEED ?? Date.now() % 1_000_000);
const STEPS = 60;
const DEVICES = HOSTS * HANDLES_PER_DEVICE.length;

const arq = fc.nat(ARQS - 1);
const host = fc.nat(HOSTS - 1);
const device = fc.nat(DEVICES - 1);
const step: fc.Arbitrary<DeviceLifeStep> = fc.oneof(
  { weight: 3, arbitrary: arq.map((a) => ({ kind: 'create' as const, arq: a })) },
  { weight: 5, arbitrary: fc.record({ arq, device }).map((s) => ({ kind: 'bind' as const, ...s })) },
  { weight: 2, arbitrary: arq.map((a) => ({ kind: 'unbind' as const, arq: a })) },
  { weight: 2, arbitrary: arq.map((a) => ({ kind: 'delete' as const, arq: a })) },
  { weight: 1, arbitrary: host.map((h) => ({ kind: 'fence' as const, host: h })) },
  { weight: 1, arbitrary: host.map((h) => ({ kind: 'unfence' as const, host: h })) },
  { weight: 1, arbitrary: host.map((h) => ({ kind: 'agentLost' as const, host: h })) },
  { weight: 1, arbitrary: host.map((h) => ({ kind: 'agentBack' as const, host: h })) },
  { weight: 1, arbitrary: fc.record({ device, health: fc.constantFrom('ok' as const, 'failed' as const) }).map((s) => ({ kind: 'health' as const, ...s })) },
  { weight: 3, arbitrary: fc.record({ device, cleaned: fc.boolean(), stale: fc.boolean() }).map((s) => ({ kind: 'cleanOutcome' as const, ...s })) },
  { weight: 1, arbitrary: device.map((d) => ({ kind: 'retryClean' as const, device: d })) },
  { weight: 1, arbitrary: device.map((d) => ({ kind: 'releaseClean' as const, device: d })) },
  { weight: 5, arbitrary: fc.nat(20).map((pick) => ({ kind: 'settle' as const, pick })) },
);

/** Which arq holds each handle, read from the device's recorded events alone (claims minus releases), not from the decider's state. */
function heldFromEvents(events: readonly DeviceEvent[]): Map<string, string> {
  const held = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'inventory.AttachHandleClaimed') held.set(event.data.handleUuid, event.data.arqUuid);
    if (event.type === 'inventory.AttachHandleReleased' && held.get(event.data.handleUuid) === event.data.arqUuid) held.delete(event.data.handleUuid);
  }
  return held;
}

/**
 * The handles released and not cleaned since, read from the device's events
 * alone: a release (by a tenant or a fence) of a device whose type cleans
 * makes a handle dirty; only a clean job's success or an operator's release
 * makes it clean.
 */
function dirtyFromEvents(device: ModelDevice): Set<string> {
  const dirty = new Set<string>();
  for (const event of device.events) {
    if (event.type === 'inventory.AttachHandleReleased' && device.cleans) dirty.add(event.data.handleUuid);
    if (event.type === 'inventory.DeviceCleaned' || event.type === 'inventory.DeviceCleanReleased') for (const uuid of event.data.handleUuids) dirty.delete(uuid);
  }
  return dirty;
}

/** The last of these event types the device recorded, or undefined. */
const lastOf = (events: readonly DeviceEvent[], types: readonly DeviceEvent['type'][]) => [...events].reverse().find((event) => types.includes(event.type));

const fencedNow = (device: ModelDevice) => lastOf(device.events, ['inventory.DeviceFenced', 'inventory.DeviceUnfenced'])?.type === 'inventory.DeviceFenced';
const failedNow = (device: ModelDevice) => {
  const health = lastOf(device.events, ['inventory.DeviceHealthChanged']);
  return health?.type === 'inventory.DeviceHealthChanged' && health.data.health === 'failed';
};

/** What must hold after every step, whatever is still pending. */
function safetyProblems(fleet: DeviceLifeFleet): string[] {
  const problems: string[] = [];
  const holders = new Map<string, string>();
  for (const device of fleet.devices) {
    const held = heldFromEvents(device.events);
    const probe = probeClaim(fleet, device, { gate: false });
    const claimable = 'handleUuid' in probe;
    if (claimable && fencedNow(device)) problems.push(`${device.uuid} is fenced and offered a claim`);
    if (claimable && failedNow(device)) problems.push(`${device.uuid} has failed and offered a claim`);
    if (claimable && held.has(probe.handleUuid)) problems.push(`${device.uuid} offered handle ${probe.handleUuid}, held by ${held.get(probe.handleUuid)}`);
    if (claimable && dirtyFromEvents(device).has(probe.handleUuid)) problems.push(`${device.uuid} offered handle ${probe.handleUuid}, released and not cleaned since`);
    for (const [handleUuid, arqUuid] of held) {
      if (holders.has(arqUuid)) problems.push(`${arqUuid} holds ${holders.get(arqUuid)} and ${handleUuid}`);
      holders.set(arqUuid, handleUuid);
      const state = fleet.arqs.find((candidate) => candidate.uuid === arqUuid)!.state;
      const binding = state.status === 'live' && (state.state === 'BindStarted' || state.state === 'Bound') ? state.binding : null;
      const releasing = fleet.pending.some((write) => write.kind === 'release' && write.arqUuid === arqUuid && write.deviceUuid === device.uuid);
      if (binding?.deviceUuid !== device.uuid && !releasing) problems.push(`${handleUuid} is held by ${arqUuid}, which is ${state.status === 'live' ? state.state : state.status} and releases nothing`);
    }
  }
  return problems;
}

/** What must hold once every pending write has run: the fence reached every device, every hold is a bound request's, nothing offerable is stranded. */
function settledProblems(fleet: DeviceLifeFleet): string[] {
  const problems: string[] = [];
  for (const device of fleet.devices) {
    const host = fleet.hosts.find((candidate) => candidate.hostname === device.hostname)!;
    const held = heldFromEvents(device.events);
    if (fencedNow(device) !== (host.fence.fenced !== null)) problems.push(`${device.uuid}: fenced ${fencedNow(device)}, its host ${host.fence.fenced !== null}`);
    if (host.fence.fenced && held.size > 0) problems.push(`${device.uuid} is on a fenced host and still held by ${[...held.values()]}`);
    const dirty = dirtyFromEvents(device);
    const tracked = Object.entries(device.state.cleaning?.handles ?? {});
    if (JSON.stringify([...dirty].sort()) !== JSON.stringify(tracked.map(([uuid]) => uuid).sort())) problems.push(`${device.uuid}: dirty ${[...dirty]}, cleaning ${JSON.stringify(tracked)}`);
    // Pending waits for the unfence: on a host not fenced, a pending handle would never be cleaned.
    if (!host.fence.fenced && tracked.some(([, entry]) => entry.status === 'pending')) problems.push(`${device.uuid} has handles pending a clean on a host not fenced`);
    const free = device.handles.filter((handle) => !held.has(handle.uuid) && !dirty.has(handle.uuid));
    const offerable = !host.fence.fenced && !host.agentLost && !failedNow(device) && free.length > 0;
    const probe = probeClaim(fleet, device, { gate: true });
    if (offerable && 'refused' in probe) problems.push(`${device.uuid} has a free clean handle and nothing against it, but a claim is refused: ${probe.refused}`);
  }
  for (const { uuid, state } of fleet.arqs) {
    if (state.status !== 'live' || state.state !== 'Bound') continue;
    const device = fleet.devices.find((candidate) => candidate.uuid === state.binding!.deviceUuid)!;
    const holds = heldFromEvents(device.events).get(state.attachHandle!.uuid) === uuid;
    // A fence releases a bound request's hold and leaves the request Bound (Nova is told nothing it did not ask).
    const fencedSinceBound = device.events.some((event) => event.type === 'inventory.AttachHandleReleased' && event.data.arqUuid === uuid && event.data.reason !== undefined);
    if (!holds && !fencedSinceBound) problems.push(`${uuid} is Bound to ${state.attachHandle!.uuid} but does not hold it`);
  }
  return problems;
}

/**
 * Issue 24's device-life property: over random sequences of creates, binds,
 * unbinds, deletes, fences and unfences, agent loss and return, health
 * failures, clean jobs that succeed, fail or answer late, and operators'
 * retries and releases of failed cleans, with the second half of each
 * unbind, delete and fence run at any later moment, the ledger's deciders
 * never offer a handle between its release and the end of its clean, nor a
 * fenced or failed device or a held handle, never leave a hold with a
 * request that gives it back, and once everything pending has run, every
 * device is fenced exactly when its host is, holds only bound requests'
 * handles, tracks exactly the handles released and not cleaned (none
 * pending on a host not fenced), and is offered when a clean handle is free
 * and nothing stands against it.
 */
describe(`a device's life over random sequences (deciders, ${RUNS} runs, seed ${SEED})`, () => {
  it('offers no handle between its release and the end of its clean, nor any device that must not be offered, and strands none', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: STEPS }), (steps) => {
        const fleet = newFleet();
        for (const [index, next] of steps.entries()) {
          runStep(fleet, next);
          const problems = safetyProblems(fleet);
          if (problems.length > 0) throw new Error(`after step ${index} (${JSON.stringify(next)}):\n${problems.join('\n')}`);
        }
        settleAll(fleet);
        const problems = [...safetyProblems(fleet), ...settledProblems(fleet)];
        if (problems.length > 0) throw new Error(`once settled:\n${problems.join('\n')}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
