import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arqStream } from '@ledger/allocation';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { imageBody } from '../support/bitstreams';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { startNovaSink, type NovaSink } from '../support/nova-sink';
import { startAgentOnLedger } from '../support/simulated-agent';

const PROJECT = 'tenant-nova-ops';
const HOSTS = ['nova-ops-1', 'nova-ops-2'] as const;
/** A bind that programs waits this long for its workflow before Nova gets its 202 (LEDGER_BIND_TIMEOUT_MS). */
const BIND_WAIT_MS = 1500;

interface Provider {
  readonly deployableUuid: string;
  readonly rpUuid: string;
}

/**
 * Every Nova operation that touches accelerator requests, each as the calls
 * nova/accelerator/cyborg.py makes in the order nova-conductor and
 * nova-compute make them (docs/cyborg-v2.md, "Nova's operations"): the
 * user's token in X-Auth-Token and Nova's in X-Service-Token, no
 * microversion header. Nova's compute API is a sink that records the
 * `accelerator-request-bound` events. Tokens are the ledger's own, shaped as
 * Keystone's (a user in the tenant's project, Nova's service user in
 * `service`): keystone.e2e-spec.ts runs the same calls through keystoneauth
 * against a real Keystone, and placement.e2e-spec.ts the allocation
 * candidates and claim against the real Placement — both too slow to start
 * again here for every operation.
 */
describe("Nova's operations on accelerator requests", () => {
  let ledger: TestLedger;
  let nova: NovaSink;
  let store: EventStore;
  const providers: Record<string, { fpga: Provider; nic: Provider; fpgaDeviceUuid: string }> = {};

  const user = () => ledger.token({ user: 'alice', project: PROJECT, roles: ['member'] });
  const novaService = () => ledger.token({ user: 'nova', project: 'service', roles: ['service'] });
  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });

  /** What Nova's keystoneauth session sends: the user's token, Nova's service token, no microversion. */
  const asNova = (method: string, path: string, body?: unknown) =>
    ledger.request(method, `/v2${path}`, { token: user(), headers: { 'x-service-token': novaService() }, body });

  /** nova-conductor's create_arqs_and_match_resource_providers: the profile's groups, then the requests. */
  async function createArqs(profile: string, body: Record<string, unknown> = {}) {
    const dps = await asNova('GET', `/device_profiles?name=${profile}`);
    expect([dps.status, dps.body.device_profiles.length]).toEqual([200, 1]);
    const created = await asNova('POST', '/accelerator_requests', { device_profile_name: profile, ...body });
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

  /** nova-compute's wait: one event per request, then get_arqs_for_instance(only_resolved=True). */
  async function waitForBound(instance: string, arqs: readonly { uuid: string }[], status = 'completed') {
    await nova.waitFor((events) => arqs.every((arq) => events.some((event) => event.tag === arq.uuid && event.server_uuid === instance)));
    for (const arq of arqs) expect(nova.events).toContainEqual({ name: 'accelerator-request-bound', server_uuid: instance, tag: arq.uuid, status });
    const listed = await asNova('GET', `/accelerator_requests?instance=${instance}`);
    expect(listed.status).toBe(200);
    return listed.body.arqs as any[];
  }

  const eventTypes = async (arqUuid: string) => (await store.readStream(arqStream(arqUuid))).map((event) => event.type);
  const claimsOn = async (provider: Provider) =>
    ((await admin('GET', `/api/v1/deployables/${provider.deployableUuid}`)).body.attachHandles as { claimedBy: string | null }[])
      .map((handle) => handle.claimedBy)
      .filter((claim): claim is string => claim !== null);
  const report = async (host: string, index: number, generation = 0) => {
    const reported = await ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agentOf(host), body: hostReportBody(index, generation) });
    expect(reported.status).toBe(200);
    return reported.body.position as number;
  };

  beforeAll(async () => {
    nova = await startNovaSink();
    ledger = await startTestLedger({
      LEDGER_NOVA_URL: nova.url,
      LEDGER_NOVA_TOKEN: 'nova-admin-token',
      LEDGER_BIND_TIMEOUT_MS: String(BIND_WAIT_MS),
      LEDGER_BITSTREAM_ALLOW_UNSIGNED: 'true',
    });
    store = ledger.app.get<EventStore>(EVENT_STORE);
    for (const [index, host] of HOSTS.entries()) {
      const position = await report(host, index + 1);
      const deployables = await ledger.request('GET', `/api/v1/deployables?hostname=${host}`, { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(position) } });
      const byClass = (rc: string) => deployables.body.items.find((d: any) => d.resourceClass === rc);
      const devices = await admin('GET', `/api/v1/devices?hostname=${host}`);
      providers[host] = {
        fpga: { deployableUuid: byClass('FPGA').uuid, rpUuid: byClass('FPGA').rpUuid },
        nic: { deployableUuid: byClass('CUSTOM_NIC').uuid, rpUuid: byClass('CUSTOM_NIC').rpUuid },
        fpgaDeviceUuid: devices.body.items.find((d: any) => d.type === 'FPGA').uuid,
      };
    }
    for (const [name, group] of [
      ['nova-fpga', { 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }],
      ['nova-port', { 'resources:CUSTOM_NIC': '1', 'trait:CUSTOM_PHYSNET1': 'required' }],
    ] as const) {
      expect((await admin('POST', '/v2/device_profiles', [{ name, groups: [group] }])).status).toBe(201);
    }
  });

  afterAll(async () => {
    await ledger?.close();
    await nova?.close();
  });

  /** A server booted on `host` with the flavor's profile: its instance and its bound requests. */
  async function boot(host: string) {
    const instance = randomUUID();
    const arqs = await createArqs('nova-fpga');
    expect((await bindArqs(arqs, host, () => providers[host].fpga.rpUuid, instance)).status).toBe(202);
    await waitForBound(instance, arqs);
    return { instance, arqs };
  }

  it('boots: profile, create, bind on the nodename, one event per request, then the attach handles by instance', async () => {
    const instance = randomUUID();
    const arqs = await createArqs('nova-fpga');
    expect(arqs).toEqual([expect.objectContaining({ state: 'Initial', device_profile_group_id: 0 })]);
    expect((await bindArqs(arqs, HOSTS[0], () => providers[HOSTS[0]].fpga.rpUuid, instance)).status).toBe(202);
    const listed = await waitForBound(instance, arqs);
    expect(listed).toEqual([
      expect.objectContaining({ uuid: arqs[0].uuid, state: 'Bound', hostname: HOSTS[0], instance_uuid: instance, project_id: PROJECT, attach_handle_type: 'PCI' }),
    ]);
    expect(listed[0].attach_handle_info).toEqual({ domain: '0000', bus: '5e', device: '00', function: expect.stringMatching(/^[12]$/) });
    expect(await eventTypes(arqs[0].uuid)).toEqual(['allocation.ArqCreated', 'allocation.ArqBindStarted', 'allocation.ArqBound']);
    expect(await claimsOn(providers[HOSTS[0]].fpga)).toContain(arqs[0].uuid);
    // The server is deleted: nova-compute deletes by instance, and the handle goes back.
    expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
    expect(await eventTypes(arqs[0].uuid)).toEqual(['allocation.ArqCreated', 'allocation.ArqBindStarted', 'allocation.ArqBound', 'allocation.ArqDeleted']);
    expect(await claimsOn(providers[HOSTS[0]].fpga)).not.toContain(arqs[0].uuid);
  });

  it('fails a build and reschedules: the refused bind is deleted by uuid, new requests bind on another host', async () => {
    const instance = randomUUID();
    const [first, second] = HOSTS;
    // The first host's FPGA is taken out of service between scheduling and the bind.
    expect((await admin('POST', `/v2/devices/${providers[first].fpgaDeviceUuid}/disable`)).status).toBe(200);
    try {
      const arqs = await createArqs('nova-fpga');
      const refused = await bindArqs(arqs, first, () => providers[first].fpga.rpUuid, instance);
      expect([refused.status, refused.headers.get('x-error-code')]).toEqual([409, 'ARQ.BIND_FAILED']);
      await nova.waitFor((events) => events.some((event) => event.tag === arqs[0].uuid));
      expect(nova.events).toContainEqual({ name: 'accelerator-request-bound', server_uuid: instance, tag: arqs[0].uuid, status: 'failed' });
      // AcceleratorRequestBindingFailed: the conductor deletes the requests it tried to bind, by uuid.
      expect((await asNova('DELETE', `/accelerator_requests?arqs=${arqs.map((arq) => arq.uuid).join(',')}`)).status).toBe(204);
      expect(await eventTypes(arqs[0].uuid)).toEqual(['allocation.ArqCreated', 'allocation.ArqBindStarted', 'allocation.ArqBindFailed', 'allocation.ArqDeleted']);
      // A second delete of those uuids is a 404 (Cyborg's is not idempotent either); Nova logs it and goes on.
      expect((await asNova('DELETE', `/accelerator_requests?arqs=${arqs[0].uuid}`)).status).toBe(404);
      // The reschedule: new requests, bound on the alternate host.
      const again = await createArqs('nova-fpga');
      expect((await bindArqs(again, second, () => providers[second].fpga.rpUuid, instance)).status).toBe(202);
      const listed = await waitForBound(instance, again);
      expect(listed.map((arq) => [arq.uuid, arq.state, arq.hostname])).toEqual([[again[0].uuid, 'Bound', second]]);
      expect(await claimsOn(providers[first].fpga)).not.toContain(arqs[0].uuid);
      expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
    } finally {
      expect((await admin('POST', `/v2/devices/${providers[first].fpgaDeviceUuid}/enable`)).status).toBe(200);
    }
  });

  it('rebuilds on the same host: the existing requests, read resolved by instance, nothing recorded', async () => {
    const { instance, arqs } = await boot(HOSTS[0]);
    const before = await store.headPosition();
    // The conductor passes the instance's request uuids; the compute reads them resolved and spawns with their handles.
    const uuids = await asNova('GET', `/accelerator_requests?instance=${instance}`);
    expect(uuids.body.arqs.map((arq: any) => arq.uuid)).toEqual([arqs[0].uuid]);
    const resolved = await asNova('GET', `/accelerator_requests?instance=${instance}&bind_state=resolved`);
    expect(resolved.status).toBe(200);
    expect(resolved.body.arqs).toEqual([expect.objectContaining({ uuid: arqs[0].uuid, state: 'Bound', attach_handle_type: 'PCI' })]);
    expect(await store.headPosition()).toBe(before);
    expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
  });

  it.each([
    ['never comes back', false],
    ['comes back later', true],
  ])('evacuates from a host whose agent is gone (the source %s): delete by instance, create and bind on the destination', async (_, sourceReturns) => {
    const [source, destination] = HOSTS;
    const { instance, arqs } = await boot(source);
    // The source's agent is gone: nothing from it is needed to release its handle.
    expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
    expect((await eventTypes(arqs[0].uuid)).at(-1)).toBe('allocation.ArqDeleted');
    expect(await claimsOn(providers[source].fpga)).not.toContain(arqs[0].uuid);
    const moved = await createArqs('nova-fpga');
    expect((await bindArqs(moved, destination, () => providers[destination].fpga.rpUuid, instance)).status).toBe(202);
    await waitForBound(instance, moved);
    if (sourceReturns) {
      // The source's agent reports again: the evacuated request stays gone and its handle free; the destination's holds.
      await report(source, 1, 1);
      expect((await ledger.request('GET', `/v2/accelerator_requests/${arqs[0].uuid}`, { token: user() })).status).toBe(404);
      expect(await claimsOn(providers[source].fpga)).toEqual([]);
    }
    const listed = await asNova('GET', `/accelerator_requests?instance=${instance}`);
    expect(listed.body.arqs.map((arq: any) => [arq.uuid, arq.state, arq.hostname])).toEqual([[moved[0].uuid, 'Bound', destination]]);
    expect(await claimsOn(providers[destination].fpga)).toContain(moved[0].uuid);
    expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
  });

  it('shelve-offloads (delete by instance) and unshelves (new requests bound where the server lands)', async () => {
    const { instance, arqs } = await boot(HOSTS[0]);
    expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
    expect((await asNova('GET', `/accelerator_requests?instance=${instance}`)).body.arqs).toEqual([]);
    expect(await claimsOn(providers[HOSTS[0]].fpga)).not.toContain(arqs[0].uuid);
    const unshelved = await createArqs('nova-fpga');
    expect((await bindArqs(unshelved, HOSTS[1], () => providers[HOSTS[1]].fpga.rpUuid, instance)).status).toBe(202);
    const listed = await waitForBound(instance, unshelved);
    expect(listed.map((arq) => [arq.uuid, arq.state, arq.hostname])).toEqual([[unshelved[0].uuid, 'Bound', HOSTS[1]]]);
    expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
  });

  it('binds one request per accelerator-direct port with the flavor\'s, and serves the handle details Nova copies into the port binding', async () => {
    const instance = randomUUID();
    const host = HOSTS[1];
    const flavorArqs = await createArqs('nova-fpga');
    // One request per port, from the port's device profile (Nova refuses a port profile that yields more).
    const portArqs = [];
    for (const _port of [randomUUID(), randomUUID()]) portArqs.push(...(await createArqs('nova-port')));
    expect(portArqs).toHaveLength(2);
    const portUuids = new Set(portArqs.map((arq) => arq.uuid));
    // One PATCH for the instance: the flavor's bindings updated with the ports'.
    const all = [...flavorArqs, ...portArqs];
    expect((await bindArqs(all, host, (arq) => (portUuids.has(arq.uuid) ? providers[host].nic : providers[host].fpga).rpUuid, instance)).status).toBe(202);
    const listed = await waitForBound(instance, all);
    expect(listed.map((arq) => arq.state)).toEqual(['Bound', 'Bound', 'Bound']);
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
    expect((await claimsOn(providers[host].nic)).sort()).toEqual([...portUuids].sort());
    expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
    expect(await claimsOn(providers[host].nic)).toEqual([]);
  });

  it('deletes by instance while a bind that programs is in flight: the request goes at once, and the bind ends compensated once the agent is back', async () => {
    const host = 'nova-ops-3';
    const dir = mkdtempSync(join(tmpdir(), 'nova-ops-agent-'));
    const simulated = { fpgas: 1, fpgaVfs: 2, gpus: 0, nics: 0 };
    let agent = await startAgentOnLedger(ledger, { hostname: host, dir, simulated });
    try {
      const device = (await admin('GET', `/api/v1/devices?hostname=${host}`)).body.items[0];
      const deployable = (await admin('GET', `/api/v1/deployables?hostname=${host}&resourceClass=FPGA`)).body.items[0];
      const fpga = { deployableUuid: deployable.uuid, rpUuid: deployable.rpUuid };
      const image = imageBody(Buffer.from(`nova-ops ${randomUUID()} `.repeat(32)), null, { name: 'nova-ops', interfaceId: device.boardInfo.interface_id });
      const registered = await admin('POST', '/api/v1/bitstreams', image);
      expect(registered.status).toBe(201);
      const profile = [{ name: 'nova-programmed', groups: [{ 'resources:FPGA': '1', 'accel:bitstream_id': registered.body.bitstreamId }] }];
      expect((await admin('POST', '/v2/device_profiles', profile)).status).toBe(201);
      // The agent stops before the bind: its program job waits, and Nova gets its 202 after the bind wait.
      await agent.stop('SIGKILL');
      const instance = randomUUID();
      const arqs = await createArqs('nova-programmed');
      expect((await bindArqs(arqs, host, () => fpga.rpUuid, instance)).status).toBe(202);
      const pending = await asNova('GET', `/accelerator_requests?instance=${instance}`);
      expect(pending.body.arqs.map((arq: any) => arq.state)).toEqual(['BindStarted']);
      expect((await asNova('GET', `/accelerator_requests?instance=${instance}&bind_state=resolved`)).status).toBe(423);
      // The server is deleted before the bind finishes: the request and its handle go at once.
      expect((await asNova('DELETE', `/accelerator_requests?instance=${instance}`)).status).toBe(204);
      expect((await eventTypes(arqs[0].uuid)).at(-1)).toBe('allocation.ArqDeleted');
      expect((await asNova('GET', `/accelerator_requests?instance=${instance}`)).body.arqs).toEqual([]);
      expect(await claimsOn(fpga)).toEqual([]);
      // The agent comes back and runs the job; the step after it finds the request gone, and the bind is undone.
      agent = await startAgentOnLedger(ledger, { hostname: host, dir, simulated });
      const bindStatus = async () => (await admin('GET', `/api/v1/workflows?arq=${arqs[0].uuid}`)).body.items[0].status as string;
      await eventually(async () => (await bindStatus()) !== 'running', 60_000);
      expect(await bindStatus()).toBe('compensated');
      expect(await claimsOn(fpga)).toEqual([]);
      expect(await eventTypes(arqs[0].uuid)).toEqual(['allocation.ArqCreated', 'allocation.ArqBindStarted', 'allocation.ArqDeleted']);
    } finally {
      await agent.stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
