import { EVENT_STORE, type EventStore, type RecordedEvent } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { gpuHostReport } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { ledgerctl } from '../support/ledgerctl-process';

const HOST = 'compute-fence';
const REASON = 'PSU dead, host unreachable';

interface Provider {
  readonly uuid: string;
  readonly deviceUuid: string;
  readonly total: number;
  readonly reserved: number;
  readonly reservedBecause: readonly string[];
}

/**
 * Fencing a dead host (issue 24, part 2): every hold on its devices is
 * released as facts carrying the fence's reason, its providers are reserved
 * in the desired Placement state, binds to it are refused with
 * INVENTORY.HOST_FENCED, and unfencing offers it again.
 */
describe('fencing a host (embedded SQLite)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let nova: string;
  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const fresh = async () => ({ 'x-ledger-min-position': String(await store.headPosition()) });
  const providersOf = async (host: string): Promise<Provider[]> =>
    (await ledger.request('GET', `/api/v1/hosts/${host}/placement`, { token: ledger.adminToken, headers: await fresh() })).body.providers;
  const deviceEvents = async (deviceUuid: string) => (await store.readStream(`device-${deviceUuid}`)) as RecordedEvent[];

  beforeAll(async () => {
    ledger = await startTestLedger({});
    store = ledger.app.get(EVENT_STORE);
    nova = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    expect((await ledger.request('PUT', `/api/v1/hosts/${HOST}/report`, { token: agentOf(HOST), body: gpuHostReport() })).status).toBe(200);
    const profile = await ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name: 'gpu-dp', groups: [{ 'resources:PGPU': '1' }] }] });
    expect(profile.status).toBe(201);
  });
  afterAll(() => ledger.close());

  /** Creates a request and sends Nova's bind to the provider. */
  async function bindTo(rp: string) {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova, body: { device_profile_name: 'gpu-dp' } });
    expect(created.status).toBe(201);
    const uuid: string = created.body.arqs[0].uuid;
    const body = {
      [uuid]: [
        { op: 'add', path: '/hostname', value: HOST },
        { op: 'add', path: '/device_rp_uuid', value: rp },
        { op: 'add', path: '/instance_uuid', value: crypto.randomUUID() },
      ],
    };
    return { uuid, response: await ledger.request('PATCH', '/v2/accelerator_requests', { token: nova, body }) };
  }
  const arqState = async (uuid: string) => (await ledger.request('GET', `/v2/accelerator_requests/${uuid}`, { token: nova })).body.state;

  it('releases all 8 holds with the reason, reserves the host in Placement, refuses binds, shows the host fenced, fences a device it reports later, and offers it again once unfenced', async () => {
    const providers = (await providersOf(HOST)).slice();
    expect(providers).toHaveLength(8);
    const arqs = [];
    for (const provider of providers) {
      const bind = await bindTo(provider.uuid);
      expect(bind.response.status).toBe(202);
      arqs.push(bind.uuid);
    }
    for (const uuid of arqs) await eventually(async () => (await arqState(uuid)) === 'Bound');

    const fenced = await ledger.request('POST', `/api/v1/hosts/${HOST}/fence`, { token: ledger.adminToken, body: { reason: REASON } });
    expect([fenced.status, fenced.body]).toEqual([200, { hostname: HOST, fenced: true, appended: 1, position: expect.any(Number) }]);

    for (const provider of providers) {
      const events = await deviceEvents(provider.deviceUuid);
      const released = events.filter((event) => event.type === 'inventory.AttachHandleReleased');
      expect(released.map((event) => (event.data as { reason?: string }).reason)).toEqual([REASON]);
      expect(events.filter((event) => event.type === 'inventory.DeviceFenced').map((event) => event.data)).toEqual([
        expect.objectContaining({ deviceUuid: provider.deviceUuid, hostname: HOST, reason: REASON }),
      ]);
    }
    // Cyborg leaves a request on a lost device as it is and never tells Nova: the request stays Bound until Nova deletes it.
    for (const uuid of arqs) expect(await arqState(uuid)).toBe('Bound');
    expect((await providersOf(HOST)).map((provider) => [provider.reserved, provider.total, provider.reservedBecause])).toEqual(
      providers.map(() => [1, 1, ['fenced']]),
    );

    const refused = await bindTo(providers[0].uuid);
    expect([refused.response.status, refused.response.headers.get('x-error-code')]).toEqual([409, 'INVENTORY.HOST_FENCED']);
    expect(await arqState(refused.uuid)).toBe('Initial');

    // The host's view says it is fenced, why and since when: REST, GraphQL and `ledgerctl host show`.
    const fence = { fenced: true, fencedReason: REASON, fencedAt: expect.any(String) };
    const view = await ledger.request('GET', `/api/v1/hosts/${HOST}`, { token: ledger.adminToken, headers: await fresh() });
    expect(view.body).toMatchObject(fence);
    const graphql = await ledger.request('POST', '/graphql', { token: ledger.adminToken, body: { query: `{ host(hostname: "${HOST}") { fenced fencedReason fencedAt } }` } });
    expect(graphql.body.data.host).toEqual({ ...fence, fencedAt: view.body.fencedAt });
    const shown = await ledgerctl({ LEDGER_URL: ledger.url, LEDGER_TOKEN: ledger.adminToken }, 'host', 'show', HOST);
    expect([shown.code, shown.stdout]).toEqual([0, expect.stringContaining(`fenced: yes, since ${view.body.fencedAt}: ${REASON}\n`)]);

    // A device the fenced host's agent reports for the first time is fenced as it arrives, with the fence's reason.
    const withNinth = gpuHostReport(9);
    const reported = await ledger.request('PUT', `/api/v1/hosts/${HOST}/report`, { token: agentOf(HOST), body: withNinth });
    expect(reported.status).toBe(200);
    const devices = (await ledger.request('GET', `/api/v1/devices?hostname=${HOST}`, { token: ledger.adminToken, headers: await fresh() })).body.items as { uuid: string }[];
    const ninth = devices.find((device) => !providers.some((provider) => provider.deviceUuid === device.uuid))!;
    expect((await deviceEvents(ninth.uuid)).map((event) => [event.type, (event.data as { reason?: string }).reason])).toEqual([['inventory.DeviceFenced', REASON]]);

    // Fencing again appends nothing and releases nothing more; a hold that was released is not given back twice.
    const again = await ledger.request('POST', `/api/v1/hosts/${HOST}/fence`, { token: ledger.adminToken, body: { reason: 'again' } });
    expect([again.status, again.body.appended]).toEqual([200, 0]);

    // Deleting a request whose hold the fence released gives back nothing more (the release is idempotent).
    expect((await ledger.request('DELETE', `/v2/accelerator_requests/${arqs[0]}`, { token: nova })).status).toBe(204);

    const unfenced = await ledger.request('POST', `/api/v1/hosts/${HOST}/unfence`, { token: ledger.adminToken });
    expect([unfenced.status, unfenced.body.fenced, unfenced.body.appended]).toEqual([200, false, 1]);
    expect((await providersOf(HOST)).every((provider) => provider.reserved === 0 && provider.reservedBecause.length === 0)).toBe(true);
    expect((await deviceEvents(ninth.uuid)).map((event) => event.type)).toEqual(['inventory.DeviceFenced', 'inventory.DeviceUnfenced']);
    expect((await ledger.request('GET', `/api/v1/hosts/${HOST}`, { token: ledger.adminToken, headers: await fresh() })).body).toMatchObject({
      fenced: false,
      fencedReason: null,
      fencedAt: null,
    });
    const offered = await bindTo(providers[0].uuid);
    expect(offered.response.status).toBe(202);
    await eventually(async () => (await arqState(offered.uuid)) === 'Bound');
  });

  it('answers stable codes: 400 without a reason, 404 for a host that never reported, 409 to unfence a host not fenced, 403 for a manager', async () => {
    const noReason = await ledger.request('POST', `/api/v1/hosts/${HOST}/fence`, { token: ledger.adminToken, body: {} });
    expect(noReason.status).toBe(400);
    const unknown = await ledger.request('POST', '/api/v1/hosts/compute-none/fence', { token: ledger.adminToken, body: { reason: REASON } });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'INVENTORY.HOST_NOT_FOUND']);
    const notFenced = await ledger.request('POST', `/api/v1/hosts/${HOST}/unfence`, { token: ledger.adminToken });
    expect([notFenced.status, notFenced.body.code]).toEqual([409, 'INVENTORY.HOST_NOT_FENCED']);
    const manager = ledger.token({ user: 'mia', project: 'tenant-a', roles: ['manager'] });
    const refused = await ledger.request('POST', `/api/v1/hosts/${HOST}/fence`, { token: manager, body: { reason: REASON } });
    expect(refused.status).toBe(403);
  });
});

describe('fencing a lost host automatically (LEDGER_AUTO_FENCE_AFTER_SECONDS)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const beat = (host: string, intervalSeconds: number) =>
    ledger.request('POST', `/api/v1/hosts/${host}/heartbeat`, { token: agentOf(host), body: { agentVersion: '0.1.0', intervalSeconds, devices: [] } });
  const hostEvents = async (host: string) => ((await store.readStream(`host-${host}`)) as RecordedEvent[]).map((event) => event.type);

  beforeAll(async () => {
    ledger = await startTestLedger({
      LEDGER_AGENT_LOST_AFTER_INTERVALS: '1',
      LEDGER_AGENT_LIVENESS_CHECK_MS: '50',
      LEDGER_AGENT_HEARTBEAT_SECONDS: '3600',
      LEDGER_AUTO_FENCE_AFTER_SECONDS: '1',
    });
    store = ledger.app.get(EVENT_STORE);
    for (const host of ['compute-silent', 'compute-alive']) {
      expect((await ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agentOf(host), body: gpuHostReport() })).status).toBe(200);
    }
  });
  afterAll(() => ledger.close());

  it('fences a host lost longer than the setting, with the reason and by auto-fence, and leaves a live host alone', async () => {
    // A one-second interval with one interval allowed: the monitor finds the host lost, then fences it a second later.
    expect((await beat('compute-silent', 1)).status).toBe(200);
    expect((await beat('compute-alive', 3600)).status).toBe(200);
    await eventually(async () => (await hostEvents('compute-silent')).includes('inventory.HostFenced'), 15_000);
    const events = (await store.readStream('host-compute-silent')) as RecordedEvent[];
    const lost = events.find((event) => event.type === 'inventory.AgentLost')!;
    const fenced = events.find((event) => event.type === 'inventory.HostFenced')!;
    expect(fenced.data).toEqual({
      hostname: 'compute-silent',
      reason: `agent lost since ${(lost.data as { detectedAt: string }).detectedAt}`,
      by: 'ledger:auto-fence',
      at: expect.any(String),
    });
    expect(Date.parse((fenced.data as { at: string }).at) - Date.parse((lost.data as { detectedAt: string }).detectedAt)).toBeGreaterThanOrEqual(1000);
    expect(await hostEvents('compute-alive')).not.toContain('inventory.HostFenced');
  });

  it('fences and unfences through ledgerctl, with the reason recorded', async () => {
    const env = { LEDGER_URL: ledger.url, LEDGER_TOKEN: ledger.adminToken };
    const fenced = await ledgerctl(env, 'host', 'fence', 'compute-alive', '--reason', 'NIC flapping');
    expect([fenced.code, fenced.stdout]).toEqual([0, 'compute-alive: fenced\n']);
    const fence = ((await store.readStream('host-compute-alive')) as RecordedEvent[]).find((event) => event.type === 'inventory.HostFenced')!;
    expect(fence.data).toMatchObject({ reason: 'NIC flapping' });
    const unfenced = await ledgerctl(env, 'host', 'unfence', 'compute-alive', '--json');
    expect([unfenced.code, JSON.parse(unfenced.stdout)]).toEqual([0, { hostname: 'compute-alive', fenced: false, appended: 1, position: expect.any(Number) }]);
    const again = await ledgerctl(env, 'host', 'unfence', 'compute-alive');
    expect([again.code, again.stderr]).toEqual([expect.any(Number), expect.stringContaining('INVENTORY.HOST_NOT_FENCED')]);
    expect(again.code).not.toBe(0);
    const noReason = await ledgerctl(env, 'host', 'fence', 'compute-alive');
    expect([noReason.code, noReason.stderr]).toEqual([expect.any(Number), expect.stringContaining('--reason')]);
    expect(noReason.code).not.toBe(0);
  });
});
