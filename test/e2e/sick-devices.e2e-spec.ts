import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

const FPGA_PCI = '0000:5e:00.0';

/**
 * A device that failed, or whose host's agent is lost, is neither offered
 * (the desired Placement state reserves it) nor claimable: a bind through
 * Cyborg's API is refused with 409 and a stable code before anything is
 * recorded, and goes through once the device or the agent is back.
 */
describe('sick devices cannot be claimed (embedded SQLite)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let nova: string;
  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const beat = (host: string, health: string, intervalSeconds = 3600) =>
    ledger.request('POST', `/api/v1/hosts/${host}/heartbeat`, {
      token: agentOf(host),
      body: { agentVersion: '0.1.0', intervalSeconds, devices: [{ pciAddress: FPGA_PCI, health, healthReason: health === 'ok' ? null : 'Xid 79' }] },
    });
  const fresh = async () => ({ 'x-ledger-min-position': String(await store.headPosition()) });
  const placementOf = async (host: string) =>
    (await ledger.request('GET', `/api/v1/hosts/${host}/placement`, { token: ledger.adminToken, headers: await fresh() })).body;
  const fpgaOf = async (host: string) => (await placementOf(host)).providers.find((provider: { resourceClass: string }) => provider.resourceClass === 'FPGA');

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_AGENT_LOST_AFTER_INTERVALS: '1', LEDGER_AGENT_LIVENESS_CHECK_MS: '50', LEDGER_AGENT_HEARTBEAT_SECONDS: '3600' });
    store = ledger.app.get(EVENT_STORE);
    nova = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    for (const host of ['compute-1', 'compute-2']) {
      expect((await ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agentOf(host), body: hostReportBody(1) })).status).toBe(200);
    }
    const profile = await ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name: 'fpga-dp', groups: [{ 'resources:FPGA': '1' }] }] });
    expect(profile.status).toBe(201);
  });
  afterAll(() => ledger.close());

  /** Creates a request, sends Nova's bind to the host's FPGA, and answers the response and the head position just before the bind. */
  async function bindToFpga(host: string) {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova, body: { device_profile_name: 'fpga-dp' } });
    expect(created.status).toBe(201);
    const uuid: string = created.body.arqs[0].uuid;
    const { uuid: rp } = await fpgaOf(host);
    const before = await store.headPosition();
    const body = {
      [uuid]: [
        { op: 'add', path: '/hostname', value: host },
        { op: 'add', path: '/device_rp_uuid', value: rp },
        { op: 'add', path: '/instance_uuid', value: crypto.randomUUID() },
      ],
    };
    const response = await ledger.request('PATCH', '/v2/accelerator_requests', { token: nova, body });
    return { uuid, response, before };
  }

  async function expectRefusedUnchanged({ uuid, response, before }: Awaited<ReturnType<typeof bindToFpga>>, code: string) {
    expect([response.status, response.headers.get('x-error-code')]).toEqual([409, code]);
    expect(response.body.error_message).toEqual(expect.any(String));
    expect(await store.headPosition()).toBe(before);
    const shown = await ledger.request('GET', `/v2/accelerator_requests/${uuid}`, { token: nova });
    expect(shown.body).toMatchObject({ state: 'Initial', device_rp_uuid: null, instance_uuid: null });
  }

  it('refuses a failed device with 409 INVENTORY.DEVICE_UNHEALTHY and records nothing; binds once it is healthy again', async () => {
    expect((await beat('compute-1', 'failed')).body).toMatchObject({ appended: 1 });
    const sick = await fpgaOf('compute-1');
    expect(sick).toMatchObject({ reservedBecause: ['unhealthy'], reserved: sick.total });

    await expectRefusedUnchanged(await bindToFpga('compute-1'), 'INVENTORY.DEVICE_UNHEALTHY');

    expect((await beat('compute-1', 'ok')).body).toMatchObject({ appended: 1 });
    expect(await fpgaOf('compute-1')).toMatchObject({ reservedBecause: [], reserved: 0 });
    const healed = await bindToFpga('compute-1');
    expect(healed.response.status).toBe(202);
  });

  it('keeps a degraded device claimable', async () => {
    expect((await beat('compute-1', 'degraded')).body).toMatchObject({ appended: 1 });
    expect(await fpgaOf('compute-1')).toMatchObject({ reservedBecause: [] });
    expect((await bindToFpga('compute-1')).response.status).toBe(202);
    expect((await beat('compute-1', 'ok')).body).toMatchObject({ appended: 1 });
  });

  it('refuses a device whose agent is lost with 409 INVENTORY.AGENT_LOST and records nothing; binds once the agent is back', async () => {
    // A one-second interval with one interval allowed: the liveness monitor finds the host silent soon after.
    expect((await beat('compute-2', 'ok', 1)).status).toBe(200);
    await eventually(async () => (await fpgaOf('compute-2'))?.reservedBecause.includes('agent-lost'));
    expect(await fpgaOf('compute-2')).toMatchObject({ reservedBecause: ['agent-lost'] });

    await expectRefusedUnchanged(await bindToFpga('compute-2'), 'INVENTORY.AGENT_LOST');

    expect((await beat('compute-2', 'ok')).body).toMatchObject({ appended: 1 });
    expect(await fpgaOf('compute-2')).toMatchObject({ reservedBecause: [] });
    expect((await bindToFpga('compute-2')).response.status).toBe(202);
  });

  it('serves the desired state to admins and managers only, and 404 for a host that never reported', async () => {
    const member = ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
    const refused = await ledger.request('GET', '/api/v1/hosts/compute-1/placement', { token: member });
    expect([refused.status, refused.headers.get('x-error-code')]).toEqual([403, 'AUTH.ROLE_REQUIRED']);
    const unknown = await ledger.request('GET', '/api/v1/hosts/compute-9/placement', { token: ledger.adminToken });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'INVENTORY.HOST_NOT_FOUND']);
    const placement = await placementOf('compute-1');
    expect(placement).toEqual({ hostname: 'compute-1', position: expect.any(Number), providers: expect.any(Array), sync: null });
    expect(placement.providers.map((provider: { name: string }) => provider.name)).toEqual([...placement.providers.map((provider: { name: string }) => provider.name)].sort());
    for (const provider of placement.providers) expect(provider).toMatchObject({ traits: expect.arrayContaining(['OWNER_CYBORG']), maxUnit: provider.total });
  });
});
