import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arqStream } from '@ledger/allocation';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { imageBody } from '../support/bitstreams';
import { hostReportBody } from '../support/fleet';
import type { KeystoneAdmin } from '../support/keystone-admin';
import { keystoneMissing, type KeystoneService, startKeystoneService } from '../support/keystone-service';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { startNovaSink, type NovaSink } from '../support/nova-sink';
import { createComputeNode, type PlacementCall, placementClient } from '../support/placement-client';
import { PLACEMENT_KEYSTONE_USER, type PlacementService, placementMissing, placementWithKeystone, startPlacementService } from '../support/placement-service';
import { describeWithService, postgresUnavailable, postgresUrl } from '../support/services';
import { startAgentOnLedger } from '../support/simulated-agent';

/** A bind that programs waits this long for its workflow before Nova gets its 202 (LEDGER_BIND_TIMEOUT_MS). */
const BIND_WAIT_MS = 1500;
const FPGA_GROUP = { 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' };
const PORT_GROUP = { 'resources:CUSTOM_NIC': '1', 'trait:CUSTOM_PHYSNET1': 'required' };

// Keystone's set-up takes about 10 s, the real Placement answers in milliseconds; a loaded machine can triple both.
jest.setTimeout(180_000);

/** Placement's allocations of one consumer: provider uuid → resource class → amount. */
type Allocations = Record<string, { resources: Record<string, number> }>;

const unavailable = keystoneMissing() ?? postgresUnavailable() ?? placementMissing();

/**
 * Every Nova operation that touches accelerator requests, each as the calls
 * Nova makes, in the order nova-scheduler, nova-conductor and nova-compute
 * make them (docs/cyborg-v2.md, "Nova's operations"): allocation
 * candidates and claims on a real Placement the ledger keeps true,
 * Cyborg's API called with the user's Keystone token in X-Auth-Token and
 * Nova's in X-Service-Token (no microversion). One real Keystone validates
 * every token: Placement's keystonemiddleware checks Nova's and the
 * ledger's, the ledger checks the user's and Nova's. Nova's compute API is
 * a sink that records the `accelerator-request-bound` events the ledger
 * sends with its own Keystone token.
 */
describeWithService('Keystone (python3-keystone on PostgreSQL) and Placement (python3-placement)', unavailable)("Nova's operations on accelerator requests", () => {
  const run = randomUUID().slice(0, 6);
  const HOSTS = [`nova-ops-${run}-1`, `nova-ops-${run}-2`] as const;
  let keystone: KeystoneService;
  let keystoneAdmin: KeystoneAdmin;
  let placementService: PlacementService;
  let ledger: TestLedger;
  let nova: NovaSink;
  let store: EventStore;
  let placement: PlacementCall;
  let tenant: { projectId: string; userId: string };
  let userToken: string;
  let novaToken: string;
  const computeNodes: Record<string, string> = {};
  const fpgaOf: Record<string, { deployableUuid: string; rpUuid: string; deviceUuid: string }> = {};
  const nicOf: Record<string, { deployableUuid: string; rpUuid: string }> = {};

  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  /** The operator's calls and the test's own look at the ledger. */
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });
  /** What Nova's keystoneauth session sends: the user's token, Nova's service token, no microversion. */
  const asNova = (method: string, path: string, body?: unknown) => ledger.request(method, `/v2${path}`, { token: userToken, headers: { 'x-service-token': novaToken }, body });

  /**
   * nova-scheduler: the flavor's VCPU in the unnumbered group, one numbered
   * group per accelerator group (the flavor's profile, then a port's), the
   * host's tree (a scheduler picks the host; a test names it), then the
   * claim of the first candidate for the instance. Answers the allocation
   * and each group's provider, as `mappings` give them to the conductor.
   */
  async function scheduleAndClaim(host: string, instance: string, groups: readonly Record<string, string>[]) {
    const query = new URLSearchParams({ resources: 'VCPU:1', in_tree: computeNodes[host], group_policy: 'none' });
    groups.forEach((group, index) => {
      const resources = Object.entries(group).filter(([key]) => key.startsWith('resources:'));
      const required = Object.entries(group).filter(([key, value]) => key.startsWith('trait:') && value === 'required');
      query.set(`resources_acc${index}`, resources.map(([key, count]) => `${key.slice('resources:'.length)}:${count}`).join(','));
      if (required.length > 0) query.set(`required_acc${index}`, required.map(([key]) => key.slice('trait:'.length)).join(','));
    });
    const candidates = await placement('GET', `/allocation_candidates?${query}`);
    expect(candidates.status).toBe(200);
    // None: say what the host's tree holds, so a failure shows whether it was reserved, used or missing.
    if (candidates.body.allocation_requests.length === 0) throw new Error(`no allocation candidates on ${host} for ${query}: ${JSON.stringify(await treeOf(host))}`);
    const chosen = candidates.body.allocation_requests[0] as { allocations: Allocations; mappings: Record<string, string[]> };
    await claim(instance, chosen.allocations, null);
    return { allocations: chosen.allocations, providerOf: (group: number) => chosen.mappings[`_acc${group}`][0] };
  }

  /** Every provider of `host`'s tree with its inventories (total, reserved) and usages. */
  async function treeOf(host: string) {
    const { resource_providers: providers } = (await placement('GET', `/resource_providers?in_tree=${computeNodes[host]}`)).body as { resource_providers: { uuid: string; name: string }[] };
    return Promise.all(
      providers.map(async ({ uuid, name }) => ({
        name,
        inventories: (await placement('GET', `/resource_providers/${uuid}/inventories`)).body.inventories,
        usages: (await placement('GET', `/resource_providers/${uuid}/usages`)).body.usages,
      })),
    );
  }

  /** Placement's PUT /allocations/{instance}, as nova's report client sends it. */
  async function claim(instance: string, allocations: Allocations, consumerGeneration: number | null) {
    const answer = await placement('PUT', `/allocations/${instance}`, { allocations, project_id: tenant.projectId, user_id: tenant.userId, consumer_generation: consumerGeneration });
    // Refused: say what each host's tree held, so a failure shows which provider was full and why.
    if (answer.status !== 204) throw new Error(`claim of ${JSON.stringify(allocations)} refused: ${answer.status} ${JSON.stringify(answer.body)}; trees: ${JSON.stringify(await Promise.all(HOSTS.map(async (host) => [host, await treeOf(host)])))}`);
    expect(answer.body).toBeUndefined();
  }

  const allocationsOf = async (instance: string) => (await placement('GET', `/allocations/${instance}`)).body as { allocations: Record<string, { resources: Record<string, number> }>; consumer_generation?: number };
  const freeOf = async (rpUuid: string) => {
    const { inventories } = (await placement('GET', `/resource_providers/${rpUuid}/inventories`)).body;
    const { usages } = (await placement('GET', `/resource_providers/${rpUuid}/usages`)).body;
    return Object.fromEntries(Object.entries(inventories as Record<string, { total: number; reserved: number }>).map(([rc, inventory]) => [rc, inventory.total - inventory.reserved - (usages[rc] ?? 0)]));
  };

  /** nova-conductor's create_arqs_and_match_resource_providers: the profile (exactly one), then its requests. */
  async function createArqs(profile: string) {
    const dps = await asNova('GET', `/device_profiles?name=${profile}`);
    expect([dps.status, dps.body.device_profiles.length]).toEqual([200, 1]);
    const created = await asNova('POST', '/accelerator_requests', { device_profile_name: profile });
    expect(created.status).toBe(201);
    return created.body.arqs as { uuid: string; device_profile_group_id: number; state: string }[];
  }

  /** cyborg.py's bind_arqs: one PATCH of the collection, hostname = the compute nodename. */
  const bindArqs = (arqs: readonly { uuid: string }[], host: string, rpUuid: (arq: { uuid: string }) => string, instance: string) =>
    asNova(
      'PATCH',
      '/accelerator_requests',
      Object.fromEntries(
        arqs.map((arq) => [
          arq.uuid,
          [
            { path: '/hostname', op: 'add', value: host },
            { path: '/device_rp_uuid', op: 'add', value: rpUuid(arq) },
            { path: '/instance_uuid', op: 'add', value: instance },
          ],
        ]),
      ),
    );

  /** A bind Nova takes as accepted; a refusal shows its code and message. */
  const expectAccepted = (response: { status: number; body: unknown }) => expect({ status: response.status, refusal: response.status === 202 ? undefined : response.body }).toEqual({ status: 202, refusal: undefined });

  /** nova-compute's wait: one event per request, then get_arqs_for_instance. */
  async function waitForBound(instance: string, arqs: readonly { uuid: string }[], status = 'completed') {
    await nova.waitFor((events) => arqs.every((arq) => events.some((event) => event.tag === arq.uuid && event.server_uuid === instance)));
    for (const arq of arqs) expect(nova.events).toContainEqual({ name: 'accelerator-request-bound', server_uuid: instance, tag: arq.uuid, status });
    const listed = await asNova('GET', `/accelerator_requests?instance=${instance}`);
    expect(listed.status).toBe(200);
    return listed.body.arqs as any[];
  }

  const eventTypes = async (arqUuid: string) => (await store.readStream(arqStream(arqUuid))).map((event) => event.type);
  const claimsOn = async (deployableUuid: string) =>
    ((await admin('GET', `/api/v1/deployables/${deployableUuid}`)).body.attachHandles as { claimedBy: string | null }[])
      .map((handle) => handle.claimedBy)
      .filter((claimed): claimed is string => claimed !== null);
  const report = async (host: string, index: number, generation = 0) => {
    const reported = await ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agentOf(host), body: hostReportBody(index, generation) });
    expect(reported.status).toBe(200);
    return reported.body.position as number;
  };
  const syncedAt = async (host: string, position: number) => {
    let last: unknown;
    await eventually(async () => {
      const { sync } = (await admin('GET', `/api/v1/hosts/${host}/placement`)).body;
      last = sync;
      return sync?.state === 'in-sync' && sync.position >= position;
    }).catch(async (error: Error) => {
      const reconciler = ((await ledger.request('GET', '/readyz', {})).body.reactors as { name: string }[]).find((reactor) => reactor.name === 'placement-reconciler');
      throw new Error(`${host} not in sync at ${position}: ${JSON.stringify(last)}; the reconciler: ${JSON.stringify(reconciler)} (${error.message.split(':')[0]})`);
    });
  };

  /** Nova's compute node as nova-compute makes it: a random uuid and the host's VCPUs, which every flavor asks for. */
  async function novaComputeNode(host: string) {
    const uuid = await createComputeNode(placement, host);
    const inventory = await placement('PUT', `/resource_providers/${uuid}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 64 } } });
    expect(inventory.status).toBe(200);
    computeNodes[host] = uuid;
  }

  beforeAll(async () => {
    keystone = await startKeystoneService({ postgresUrl: postgresUrl() });
    keystoneAdmin = await keystone.admin();
    const service = await keystoneAdmin.createProject('service');
    // Placement's policy wants admin of the services that write it (Nova's report client, Cyborg's and so the ledger's).
    await keystoneAdmin.userWithRoles(PLACEMENT_KEYSTONE_USER.user, PLACEMENT_KEYSTONE_USER.password, service, ['admin', 'service']);
    await keystoneAdmin.userWithRoles('ledger', 'ledger-pw', service, ['admin', 'service']);
    await keystoneAdmin.userWithRoles('nova', 'nova-pw', service, ['admin', 'service']);
    // keystonemiddleware's default cache, as a deployment runs it: a validation per token, not per call.
    placementService = await startPlacementService({ config: placementWithKeystone(keystone.url, { tokenCacheSeconds: 300 }) });
    // The ledger finds Placement in the catalog, as Cyborg does.
    await keystoneAdmin.registerService('placement', 'placement', placementService.url);
    const projectId = await keystoneAdmin.createProject('tenant-nova-ops');
    const userId = await keystoneAdmin.userWithRoles('alice', 'alice-pw', projectId, ['member']);
    tenant = { projectId, userId };
    userToken = (await keystoneAdmin.issue({ user: 'alice', password: 'alice-pw', project: 'tenant-nova-ops' })).token;
    novaToken = (await keystoneAdmin.issue({ user: 'nova', password: 'nova-pw', project: 'service' })).token;
    // Nova's report client calls Placement with Nova's own token.
    placement = placementClient(placementService.url, () => novaToken);
    // Nova's API checks the ledger's token with Keystone, as keystonemiddleware does.
    nova = await startNovaSink({ authorize: async (token) => token !== undefined && (await keystoneAdmin.isValid(token)) });
    ledger = await startTestLedger({
      LEDGER_AUTH: 'keystone',
      LEDGER_KEYSTONE_URL: keystone.url,
      LEDGER_KEYSTONE_USERNAME: 'ledger',
      LEDGER_KEYSTONE_PASSWORD: 'ledger-pw',
      LEDGER_NOVA_URL: nova.url,
      LEDGER_PLACEMENT_RESYNC_SECONDS: '1',
      LEDGER_BIND_TIMEOUT_MS: String(BIND_WAIT_MS),
      LEDGER_BITSTREAM_ALLOW_UNSIGNED: 'true',
      // The two hosts report once and never heartbeat: a slow machine must not find them lost mid-suite.
      LEDGER_AGENT_LOST_AFTER_INTERVALS: '100',
    });
    store = ledger.app.get<EventStore>(EVENT_STORE);
    for (const [index, host] of HOSTS.entries()) {
      await novaComputeNode(host);
      const position = await report(host, index + 1);
      await syncedAt(host, position);
      const deployables = (await ledger.request('GET', `/api/v1/deployables?hostname=${host}`, { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(position) } })).body.items;
      const byClass = (rc: string) => deployables.find((deployable: any) => deployable.resourceClass === rc);
      const devices = (await admin('GET', `/api/v1/devices?hostname=${host}`)).body.items;
      fpgaOf[host] = { deployableUuid: byClass('FPGA').uuid, rpUuid: byClass('FPGA').rpUuid, deviceUuid: devices.find((device: any) => device.type === 'FPGA').uuid };
      nicOf[host] = { deployableUuid: byClass('CUSTOM_NIC').uuid, rpUuid: byClass('CUSTOM_NIC').rpUuid };
    }
    for (const [name, group] of [
      [`nova-fpga-${run}`, FPGA_GROUP],
      [`nova-port-${run}`, PORT_GROUP],
    ] as const) {
      expect((await admin('POST', '/v2/device_profiles', [{ name, groups: [group] }])).status).toBe(201);
    }
  }, 180_000);

  afterAll(async () => {
    await ledger?.close();
    await nova?.close();
    await placementService?.dispose();
    await keystone?.dispose();
  });

  const FPGA_PROFILE = `nova-fpga-${run}`;
  const PORT_PROFILE = `nova-port-${run}`;

  /** A server booted on `host` with the flavor's profile: scheduled, claimed, its requests bound. */
  async function boot(host: string) {
    const instance = randomUUID();
    const scheduled = await scheduleAndClaim(host, instance, [FPGA_GROUP]);
    const arqs = await createArqs(FPGA_PROFILE);
    expectAccepted(await bindArqs(arqs, host, () => scheduled.providerOf(0), instance));
    await waitForBound(instance, arqs);
    return { instance, arqs, allocations: scheduled.allocations };
  }

  /** The server is deleted: nova-compute deletes its requests by instance, then its allocations. */
  async function deleteServer(instance: string) {
    expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
    expect((await placement('DELETE', `/allocations/${instance}`)).status).toBe(204);
  }

  it('boots: allocation candidates, the claim, profile, create, bind to the claimed provider, one event per request, the handles by instance', async () => {
    const instance = randomUUID();
    const scheduled = await scheduleAndClaim(HOSTS[0], instance, [FPGA_GROUP]);
    expect(scheduled.providerOf(0)).toBe(fpgaOf[HOSTS[0]].rpUuid);
    expect(scheduled.allocations[fpgaOf[HOSTS[0]].rpUuid]).toEqual({ resources: { FPGA: 1 } });
    const arqs = await createArqs(FPGA_PROFILE);
    expect(arqs).toEqual([expect.objectContaining({ state: 'Initial', device_profile_group_id: 0 })]);
    expectAccepted(await bindArqs(arqs, HOSTS[0], () => scheduled.providerOf(0), instance));
    const listed = await waitForBound(instance, arqs);
    expect(listed).toEqual([
      expect.objectContaining({ uuid: arqs[0].uuid, state: 'Bound', hostname: HOSTS[0], instance_uuid: instance, device_rp_uuid: scheduled.providerOf(0), project_id: tenant.projectId, attach_handle_type: 'PCI' }),
    ]);
    expect(listed[0].attach_handle_info).toEqual({ domain: '0000', bus: '5e', device: '00', function: expect.stringMatching(/^[12]$/) });
    expect(await eventTypes(arqs[0].uuid)).toEqual(['allocation.ArqCreated', 'allocation.ArqBindStarted', 'allocation.ArqBound']);
    expect(await claimsOn(fpgaOf[HOSTS[0]].deployableUuid)).toContain(arqs[0].uuid);
    // Nova's API accepted the event: the ledger's Keystone token passed Nova's check.
    expect(nova.requests.length).toBeGreaterThan(0);
    await deleteServer(instance);
    expect(await eventTypes(arqs[0].uuid)).toEqual(['allocation.ArqCreated', 'allocation.ArqBindStarted', 'allocation.ArqBound', 'allocation.ArqDeleted']);
    expect(await claimsOn(fpgaOf[HOSTS[0]].deployableUuid)).not.toContain(arqs[0].uuid);
  });

  it('fails a build and reschedules: the refused bind is deleted by uuid, the claim moves, new requests bind on the alternate host', async () => {
    const instance = randomUUID();
    const [first, second] = HOSTS;
    const scheduled = await scheduleAndClaim(first, instance, [FPGA_GROUP]);
    // The first host's FPGA is taken out of service between scheduling and the bind.
    expect((await admin('POST', `/v2/devices/${fpgaOf[first].deviceUuid}/disable`)).status).toBe(200);
    try {
      const arqs = await createArqs(FPGA_PROFILE);
      const refused = await bindArqs(arqs, first, () => scheduled.providerOf(0), instance);
      expect([refused.status, refused.headers.get('x-error-code')]).toEqual([409, 'ARQ.BIND_FAILED']);
      await nova.waitFor((events) => events.some((event) => event.tag === arqs[0].uuid));
      expect(nova.events).toContainEqual({ name: 'accelerator-request-bound', server_uuid: instance, tag: arqs[0].uuid, status: 'failed' });
      // AcceleratorRequestBindingFailed: the conductor deletes the requests it tried to bind, by uuid; the compute drops the claim.
      expect((await asNova('DELETE', `/accelerator_requests?arqs=${arqs.map((arq) => arq.uuid).join(',')}`)).status).toBe(204);
      expect((await placement('DELETE', `/allocations/${instance}`)).status).toBe(204);
      expect(await eventTypes(arqs[0].uuid)).toEqual(['allocation.ArqCreated', 'allocation.ArqBindStarted', 'allocation.ArqBindFailed', 'allocation.ArqDeleted']);
      // A second delete of those uuids is a 404 (Cyborg's is not idempotent either); Nova logs it and goes on.
      expect((await asNova('DELETE', `/accelerator_requests?arqs=${arqs[0].uuid}`)).status).toBe(404);
      // The disabled device is reserved whole in Placement now that nothing holds it: the scheduler cannot pick it again.
      await eventually(async () => (await freeOf(fpgaOf[first].rpUuid)).FPGA === 0);
      const again = await scheduleAndClaim(second, instance, [FPGA_GROUP]);
      const moved = await createArqs(FPGA_PROFILE);
      expectAccepted(await bindArqs(moved, second, () => again.providerOf(0), instance));
      const listed = await waitForBound(instance, moved);
      expect(listed.map((arq) => [arq.uuid, arq.state, arq.hostname])).toEqual([[moved[0].uuid, 'Bound', second]]);
      expect(await claimsOn(fpgaOf[first].deployableUuid)).not.toContain(arqs[0].uuid);
      await deleteServer(instance);
    } finally {
      expect((await admin('POST', `/v2/devices/${fpgaOf[first].deviceUuid}/enable`)).status).toBe(200);
      // Offered again once the reconciler has taken the reservation back: the next test's scheduler may pick it.
      await eventually(async () => (await freeOf(fpgaOf[first].rpUuid)).FPGA > 0);
    }
  });

  it('rebuilds on the same host: the existing requests, read resolved by instance, nothing recorded, the claim unchanged', async () => {
    const { instance, arqs, allocations } = await boot(HOSTS[0]);
    const before = await store.headPosition();
    // The conductor passes the instance's request uuids; the compute reads them resolved and spawns with their handles.
    const uuids = await asNova('GET', `/accelerator_requests?instance=${instance}`);
    expect(uuids.body.arqs.map((arq: any) => arq.uuid)).toEqual([arqs[0].uuid]);
    const resolved = await asNova('GET', `/accelerator_requests?instance=${instance}&bind_state=resolved`);
    expect(resolved.status).toBe(200);
    expect(resolved.body.arqs).toEqual([expect.objectContaining({ uuid: arqs[0].uuid, state: 'Bound', attach_handle_type: 'PCI' })]);
    expect(await store.headPosition()).toBe(before);
    expect((await allocationsOf(instance)).allocations).toEqual(Object.fromEntries(Object.entries(allocations).map(([rp, { resources }]) => [rp, expect.objectContaining({ resources })])));
    await deleteServer(instance);
  });

  it.each([
    ['never comes back', false],
    ['comes back later', true],
  ])(
    'evacuates from a dead host the operator fenced (the source %s): the move claim keeps the source, requests deleted by instance, created and bound on the destination',
    async (_, sourceReturns) => {
      const [source, destination] = HOSTS;
      const { instance, arqs, allocations } = await boot(source);
      // The source dies; the operator fences it. Its devices are released on the ledger and reserved in Placement,
      // all but what consumers still hold there (the instance's own claim on the source).
      const fenced = await admin('POST', `/api/v1/hosts/${source}/fence`, { reason: 'host dead, evacuating' });
      expect(fenced.status).toBe(200);
      await eventually(async () => (await claimsOn(fpgaOf[source].deployableUuid)).length === 0);
      await syncedAt(source, fenced.body.position);
      expect((await placement('GET', `/allocation_candidates?resources=FPGA:1&in_tree=${computeNodes[source]}`)).body.allocation_requests).toEqual([]);
      try {
        // nova-conductor's evacuate: the scheduler claims the destination for the instance beside its source
        // allocation, in one PUT (Placement rechecks the whole consumer, the fenced source included).
        const current = await allocationsOf(instance);
        const candidates = await placement('GET', `/allocation_candidates?resources=VCPU:1&resources_acc0=FPGA:1&required_acc0=CUSTOM_FPGA_INTEL&in_tree=${computeNodes[destination]}&group_policy=none`);
        const destinationRequest = candidates.body.allocation_requests[0] as { allocations: Allocations; mappings: Record<string, string[]> };
        await claim(instance, { ...Object.fromEntries(Object.entries(current.allocations).map(([rp, { resources }]) => [rp, { resources }])), ...destinationRequest.allocations }, current.consumer_generation ?? null);
        expect(Object.keys((await allocationsOf(instance)).allocations).sort()).toEqual([...Object.keys(allocations), ...Object.keys(destinationRequest.allocations)].sort());
        // The instance's unit on the source is allocated, not reserved; nothing else there is free.
        expect(await freeOf(fpgaOf[source].rpUuid)).toEqual({ FPGA: 0 });
        // The conductor deletes the requests by instance; no agent is needed to give a handle back.
        expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
        expect((await eventTypes(arqs[0].uuid)).at(-1)).toBe('allocation.ArqDeleted');
        const moved = await createArqs(FPGA_PROFILE);
        expectAccepted(await bindArqs(moved, destination, () => destinationRequest.mappings._acc0[0], instance));
        await waitForBound(instance, moved);
        if (sourceReturns) {
          // The source's agent reports again, fenced: the evacuated request stays gone and nothing there is claimable.
          await report(source, 1, 1);
          expect((await ledger.request('GET', `/v2/accelerator_requests/${arqs[0].uuid}`, { token: userToken })).status).toBe(404);
          expect(await claimsOn(fpgaOf[source].deployableUuid)).toEqual([]);
          // nova-compute starting on the source removes the evacuated instance's source allocations; the ledger then reserves
          // the rest of the fenced source's providers, so Placement still offers nothing there.
          const held = await allocationsOf(instance);
          const destinationOnly = Object.fromEntries(Object.entries(held.allocations).filter(([rp]) => allocations[rp] === undefined).map(([rp, { resources }]) => [rp, { resources }]));
          await claim(instance, destinationOnly, held.consumer_generation ?? null);
          await eventually(async () => {
            const { inventories } = (await placement('GET', `/resource_providers/${fpgaOf[source].rpUuid}/inventories`)).body;
            return inventories.FPGA.reserved === inventories.FPGA.total;
          });
        }
        const listed = await asNova('GET', `/accelerator_requests?instance=${instance}`);
        expect(listed.body.arqs.map((arq: any) => [arq.uuid, arq.state, arq.hostname])).toEqual([[moved[0].uuid, 'Bound', destination]]);
        expect(await claimsOn(fpgaOf[destination].deployableUuid)).toContain(moved[0].uuid);
        await deleteServer(instance);
      } finally {
        const unfenced = await admin('POST', `/api/v1/hosts/${source}/unfence`, {});
        expect(unfenced.status).toBe(200);
        // Wait for the sync of the unfence, not for a free unit: once the instance's allocation went, the fenced
        // source shows one free until the next sync reserves it (docs/placement.md), and the next boot would race it.
        await syncedAt(source, unfenced.body.position);
        expect((await freeOf(fpgaOf[source].rpUuid)).FPGA).toBeGreaterThan(0);
      }
    },
  );

  it('shelve-offloads (requests and claim deleted) and unshelves (scheduled again, new requests bound where the server lands)', async () => {
    const { instance, arqs } = await boot(HOSTS[0]);
    await deleteServer(instance);
    expect((await asNova('GET', `/accelerator_requests?instance=${instance}`)).body.arqs).toEqual([]);
    expect((await allocationsOf(instance)).allocations).toEqual({});
    expect(await claimsOn(fpgaOf[HOSTS[0]].deployableUuid)).not.toContain(arqs[0].uuid);
    const scheduled = await scheduleAndClaim(HOSTS[1], instance, [FPGA_GROUP]);
    const unshelved = await createArqs(FPGA_PROFILE);
    expectAccepted(await bindArqs(unshelved, HOSTS[1], () => scheduled.providerOf(0), instance));
    const listed = await waitForBound(instance, unshelved);
    expect(listed.map((arq) => [arq.uuid, arq.state, arq.hostname])).toEqual([[unshelved[0].uuid, 'Bound', HOSTS[1]]]);
    await deleteServer(instance);
  });

  it("binds one request per accelerator-direct port beside the flavor's, each to its group's provider, and serves what Nova copies into the port binding", async () => {
    const instance = randomUUID();
    const host = HOSTS[1];
    // The scheduler asks for the flavor's group and one group per port with a device profile.
    const scheduled = await scheduleAndClaim(host, instance, [FPGA_GROUP, PORT_GROUP, PORT_GROUP]);
    expect([scheduled.providerOf(0), scheduled.providerOf(1), scheduled.providerOf(2)]).toEqual([fpgaOf[host].rpUuid, nicOf[host].rpUuid, nicOf[host].rpUuid]);
    const flavorArqs = await createArqs(FPGA_PROFILE);
    // One request per port, from the port's device profile (Nova refuses a port profile that yields more).
    const portArqs = [...(await createArqs(PORT_PROFILE)), ...(await createArqs(PORT_PROFILE))];
    expect(portArqs).toHaveLength(2);
    const groupOf = new Map([[flavorArqs[0].uuid, 0], [portArqs[0].uuid, 1], [portArqs[1].uuid, 2]]);
    const all = [...flavorArqs, ...portArqs];
    // One PATCH for the instance: the flavor's bindings updated with the ports'.
    expectAccepted(await bindArqs(all, host, (arq) => scheduled.providerOf(groupOf.get(arq.uuid)!), instance));
    const listed = await waitForBound(instance, all);
    expect(listed.map((arq) => arq.state)).toEqual(['Bound', 'Bound', 'Bound']);
    const portUuids = new Set(portArqs.map((arq) => arq.uuid));
    const profiles = listed
      .filter((arq) => portUuids.has(arq.uuid))
      .map((arq) => {
        expect(arq.attach_handle_type).toBe('PCI');
        const { domain, bus, device, function: fn, physical_network } = arq.attach_handle_info;
        // What Nova writes into the port's binding:profile.
        return { pci_slot: `${domain}:${bus}:${device}.${fn}`, physical_network };
      });
    expect(profiles).toHaveLength(2);
    expect(profiles.every((profile) => /^0000:af:02\.[0-3]$/.test(profile.pci_slot) && profile.physical_network === 'physnet1')).toBe(true);
    expect(new Set(profiles.map((profile) => profile.pci_slot)).size).toBe(2);
    expect((await claimsOn(nicOf[host].deployableUuid)).sort()).toEqual([...portUuids].sort());
    expect((await allocationsOf(instance)).allocations[nicOf[host].rpUuid].resources).toEqual({ CUSTOM_NIC: 2 });
    await deleteServer(instance);
    expect(await claimsOn(nicOf[host].deployableUuid)).toEqual([]);
  });

  it('deletes by instance while a bind that programs is in flight: the request goes at once, and the bind ends compensated once the agent is back', async () => {
    const host = `nova-ops-${run}-3`;
    const dir = mkdtempSync(join(tmpdir(), 'nova-ops-agent-'));
    const simulated = { fpgas: 1, fpgaVfs: 2, gpus: 0, nics: 0 };
    await novaComputeNode(host);
    let agent = await startAgentOnLedger(ledger, { hostname: host, dir, simulated });
    try {
      const device = (await admin('GET', `/api/v1/devices?hostname=${host}`)).body.items[0];
      const deployable = (await admin('GET', `/api/v1/deployables?hostname=${host}&resourceClass=FPGA`)).body.items[0];
      await eventually(async () => (await admin('GET', `/api/v1/hosts/${host}/placement`)).body.sync?.state === 'in-sync');
      const image = imageBody(Buffer.from(`nova-ops ${randomUUID()} `.repeat(32)), null, { name: `nova-ops-${run}`, interfaceId: device.boardInfo.interface_id });
      const registered = await admin('POST', '/api/v1/bitstreams', image);
      expect(registered.status).toBe(201);
      const group = { 'resources:FPGA': '1', 'accel:bitstream_id': registered.body.bitstreamId };
      expect((await admin('POST', '/v2/device_profiles', [{ name: `nova-programmed-${run}`, groups: [group] }])).status).toBe(201);
      const instance = randomUUID();
      const scheduled = await scheduleAndClaim(host, instance, [group]);
      expect(scheduled.providerOf(0)).toBe(deployable.rpUuid);
      // The agent stops before the bind: its program job waits, and Nova gets its 202 after the bind wait.
      await agent.stop('SIGKILL');
      const arqs = await createArqs(`nova-programmed-${run}`);
      expectAccepted(await bindArqs(arqs, host, () => scheduled.providerOf(0), instance));
      const pending = await asNova('GET', `/accelerator_requests?instance=${instance}`);
      expect(pending.body.arqs.map((arq: any) => arq.state)).toEqual(['BindStarted']);
      expect((await asNova('GET', `/accelerator_requests?instance=${instance}&bind_state=resolved`)).status).toBe(423);
      // The server is deleted before the bind finishes: the request and its handle go at once, then the claim.
      await deleteServer(instance);
      expect((await eventTypes(arqs[0].uuid)).at(-1)).toBe('allocation.ArqDeleted');
      expect((await asNova('GET', `/accelerator_requests?instance=${instance}`)).body.arqs).toEqual([]);
      expect(await claimsOn(deployable.uuid)).toEqual([]);
      // The agent comes back and runs the job; the step after it finds the request gone, and the bind is undone.
      agent = await startAgentOnLedger(ledger, { hostname: host, dir, simulated });
      const bindStatus = async () => (await admin('GET', `/api/v1/workflows?arq=${arqs[0].uuid}`)).body.items[0].status as string;
      await eventually(async () => (await bindStatus()) !== 'running', 60_000);
      expect(await bindStatus()).toBe('compensated');
      expect(await claimsOn(deployable.uuid)).toEqual([]);
      expect(await eventTypes(arqs[0].uuid)).toEqual(['allocation.ArqCreated', 'allocation.ArqBindStarted', 'allocation.ArqDeleted']);
    } finally {
      await agent.stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
