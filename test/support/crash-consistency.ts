import { setTimeout as delay } from 'node:timers/promises';
import { boundAttachHandle } from '@ledger/allocation';
import { deviceDecider, type DeviceEvent } from '@ledger/inventory';
import { foldEvents } from '@ledger/kernel';

/** A GET answered with JSON, as an admin: the API's shapes are asserted by the v2 and inventory suites, the crash suites only read them. */
export type GetJson = (path: string) => Promise<any>;

/** Between two looks at the ledger while it settles: long enough not to load the two shared cores, short next to a workflow step. */
const POLL_MS = 200;

/**
 * Polls `inconsistencies` until it finds none; after `timeoutMs` fails with
 * what is still wrong and `context()` (the ledger's output). The crash
 * suites wait for the outcome of what the restarted ledger resumes, which
 * takes as long as the workflows it finds in flight.
 */
export async function waitUntilSettled(what: string, inconsistencies: () => Promise<string[]>, timeoutMs: number, context: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problems = await inconsistencies();
    if (problems.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${what}: still inconsistent after the workflows and reactors had time to resume:\n${problems.join('\n')}\n${context()}`);
    await delay(POLL_MS);
  }
}

/**
 * The providers a bind that ends holding one of `deployable`'s handles may
 * name: its own, and for a partition carved in the bind, its profile's room
 * on the same device (docs/partitions.md).
 */
export type BindableProviders = (deployable: { readonly rpUuid: string; readonly deviceUuid: string; readonly name: string }) => readonly string[];

/**
 * What a crash may have left half done in the binds of `project`'s
 * requests: a bind workflow not ended (`running`) or ended without undoing
 * everything (`failed`), a request still BindStarted, an attach handle
 * claimed by anything but a Bound request holding that very handle, a
 * Bound request holding no handle, the project's quota in use other than
 * one unit of `resourceClass` per live request. Empty once all is settled.
 * A request Bound to one of `fencedProviders` holds nothing: the fence gave
 * its handle back and left the request Bound, as Cyborg does.
 */
export async function bindInconsistencies(
  getJson: GetJson,
  project: string,
  resourceClass = 'FPGA',
  fencedProviders: ReadonlySet<string> = new Set(),
  providersOf: BindableProviders = (deployable) => [deployable.rpUuid],
): Promise<string[]> {
  const problems: string[] = [];
  for (const status of ['running', 'failed']) {
    const unfinished = (await getJson(`/api/v1/workflows?name=bind&status=${status}&limit=100`)).items ?? [];
    const described = unfinished.map((w: { id: string; currentStep: string | null; reason: string | null; unresolved: unknown }) =>
      status === 'running' ? `${w.id} (at ${w.currentStep})` : `${w.id} (${w.reason}; could not undo ${JSON.stringify(w.unresolved)})`,
    );
    if (unfinished.length > 0) problems.push(`${unfinished.length} bind workflow(s) ${status}: ${described.join(', ')}`);
  }
  const { arqs } = await getJson('/v2/accelerator_requests');
  for (const arq of arqs) if (arq.state === 'BindStarted') problems.push(`${arq.uuid} is still BindStarted`);
  const bound = new Map<string, { device_rp_uuid: string; attach_handle_info: Record<string, string> }>(arqs.filter((a: { state: string }) => a.state === 'Bound').map((a: { uuid: string }) => [a.uuid, a]));
  const holding = new Set<string>();
  // The API's largest page: a long partitions-crash run carves hundreds of partitions, each a deployable.
  for (const deployable of (await getJson(`/api/v1/deployables?resourceClass=${resourceClass}&limit=1000`)).items) {
    const handles = (await getJson(`/api/v1/deployables/${deployable.uuid}`)).attachHandles ?? [];
    for (const handle of handles.filter((h: { inUse: boolean }) => h.inUse)) {
      const arq = bound.get(handle.claimedBy);
      const info = sortedJson(boundAttachHandle(handle).info);
      if (!arq) problems.push(`handle ${handle.uuid} is claimed by ${handle.claimedBy}, which is not bound`);
      else if (!providersOf(deployable).includes(arq.device_rp_uuid) || sortedJson(arq.attach_handle_info) !== info) problems.push(`handle ${handle.uuid} is claimed by ${handle.claimedBy}, bound to another (${arq.device_rp_uuid} ${sortedJson(arq.attach_handle_info)})`);
      else holding.add(handle.claimedBy);
    }
  }
  for (const [uuid, arq] of bound) if (!holding.has(uuid) && !fencedProviders.has(arq.device_rp_uuid)) problems.push(`${uuid} is Bound but holds no handle`);
  const quota = await getJson(`/api/v1/quotas/${project}`);
  if ((quota.usage[resourceClass] ?? 0) !== arqs.length) problems.push(`quota in use ${quota.usage[resourceClass] ?? 0}, live requests ${arqs.length}`);
  return problems;
}

/** A host's providers as its Placement view shows them (GET /api/v1/hosts/{hostname}/placement). */
export interface ProviderView {
  readonly uuid: string;
  readonly deviceUuid: string;
  readonly resourceClass: string;
  readonly total: number;
  readonly reserved: number;
  readonly reservedBecause: readonly string[];
}

export const placementOf = async (getJson: GetJson, host: string): Promise<ProviderView[]> => (await getJson(`/api/v1/hosts/${host}/placement`)).providers;

/**
 * The handles released and not cleaned since, from the device's events
 * alone (not the decider's state): a release makes a handle dirty, a clean
 * job's success or an operator's release makes it clean.
 */
function releasedNotCleaned(events: readonly DeviceEvent[]): Set<string> {
  const dirty = new Set<string>();
  for (const event of events) {
    if (event.type === 'inventory.AttachHandleReleased') dirty.add(event.data.handleUuid);
    if (event.type === 'inventory.DeviceCleaned' || event.type === 'inventory.DeviceCleanReleased') for (const uuid of event.data.handleUuids) dirty.delete(uuid);
  }
  return dirty;
}

/**
 * What a crash may have left half done on the devices of `hosts`, each
 * device's own events read from its stream by `deviceEvents`: a provider
 * reserved with no reason given, offered while its device is fenced on its
 * stream (stranded), or offering more units than its device has clean
 * (offered dirty: a provider of `cleanedClasses` must reserve a unit for
 * each handle released and not cleaned since, by the device's history); a
 * fenced host's device not fenced on its stream, or
 * still holding a request's handle (a fence half done); a handle still
 * cleaning (its clean job lost: the suites' agents clean every job they
 * get). Every device ends offered and clean, or reserved with a reason.
 * Empty once all is settled.
 */
export async function deviceInconsistencies(
  getJson: GetJson,
  deviceEvents: (deviceUuid: string) => Promise<readonly DeviceEvent[]>,
  hosts: readonly string[],
  cleanedClasses: ReadonlySet<string>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const host of hosts) {
    const providers = await placementOf(getJson, host);
    const hostFenced = providers.some((provider) => provider.reservedBecause.includes('fenced'));
    for (const deviceUuid of new Set(providers.map((provider) => provider.deviceUuid))) {
      const events = await deviceEvents(deviceUuid);
      const device = foldEvents(deviceDecider, deviceDecider.initialState(), events);
      const held = Object.keys(device.claims).length;
      if (hostFenced && !device.fenced) problems.push(`${host} is fenced, its device ${deviceUuid} is not`);
      if (hostFenced && held > 0) problems.push(`${host} is fenced, its device ${deviceUuid} still holds ${held} handle(s)`);
      const dirty = Object.entries(device.cleaning?.handles ?? {});
      const cleaning = dirty.filter(([, entry]) => entry.status === 'cleaning').map(([uuid]) => uuid);
      if (cleaning.length > 0) problems.push(`${host}'s device ${deviceUuid} is still cleaning ${cleaning.join(', ')}`);
      for (const provider of providers.filter((candidate) => candidate.deviceUuid === deviceUuid)) {
        if (provider.reserved > 0 && provider.reservedBecause.length === 0) problems.push(`provider ${provider.uuid} of ${host} is reserved with no reason`);
        if (provider.reserved < provider.total && device.fenced) problems.push(`provider ${provider.uuid} of ${host} is offered, but its device is fenced (${device.fenced.reason})`);
        if (provider.reserved < dirty.length) problems.push(`provider ${provider.uuid} of ${host} reserves ${provider.reserved}, but ${dirty.length} of its device's handles are not clean`);
        const unclean = cleanedClasses.has(provider.resourceClass) ? releasedNotCleaned(events).size : 0;
        if (provider.reserved < unclean) problems.push(`provider ${provider.uuid} of ${host} reserves ${provider.reserved}, but ${unclean} handle(s) were released and not cleaned since`);
      }
    }
  }
  return problems;
}

/** An attach handle's info as JSON whatever the order of its members: the read model stores it with its keys sorted. */
const sortedJson = (info: Record<string, string>): string => JSON.stringify(Object.fromEntries(Object.entries(info).sort(([a], [b]) => a.localeCompare(b))));

/**
 * Deletes every accelerator request `getJson` lists, 50 a call (as Nova
 * does, by `arqs=`), so a cycle starts from none: the bound requests a
 * crash suite's clients keep would use up the attach handles over many
 * cycles.
 */
export async function deleteEveryRequest(getJson: GetJson, del: (path: string) => Promise<Response>): Promise<void> {
  const uuids = ((await getJson('/v2/accelerator_requests')).arqs as { uuid: string }[]).map((arq) => arq.uuid);
  for (let i = 0; i < uuids.length; i += 50) {
    const answer = await del(`/v2/accelerator_requests?arqs=${uuids.slice(i, i + 50).join(',')}`);
    if (answer.status !== 204) throw new Error(`deleting requests answered ${answer.status}: ${await answer.text()}`);
  }
}
