import { startNovaSink, type NovaSink } from '../support/nova-sink';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { hostReportBody } from '../support/fleet';

const INSTANCE = '11111111-2222-4333-8444-555555555555';
const OTHER_INSTANCE = '11111111-2222-4333-8444-666666666666';
const V2_1 = { 'openstack-api-version': 'accelerator 2.1' };

describe('Cyborg v2 accelerator requests', () => {
  let ledger: TestLedger;
  let nova: NovaSink;
  let admin: string;
  let nova_: string; // Nova: the tenant's token plus its own service role
  let tenant: string;
  let reader: string;
  let otherTenant: string;
  let fpgaRp: string;
  let gpuRp: string;


  beforeAll(async () => {
    nova = await startNovaSink();
    ledger = await startTestLedger({ LEDGER_NOVA_URL: nova.url, LEDGER_NOVA_TOKEN: 'nova-admin-token' });
    admin = ledger.adminToken;
    nova_ = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    tenant = ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
    reader = ledger.token({ user: 'rita', project: 'tenant-a', roles: ['reader'] });
    otherTenant = ledger.token({ user: 'bob', project: 'tenant-b', roles: ['member', 'service'] });
    const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
    const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 0) });
    expect(report.status).toBe(200);
    const deployables = await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', { token: admin, headers: { 'x-ledger-min-position': String(report.body.position) } });
    fpgaRp = deployables.body.items.find((d: any) => d.resourceClass === 'FPGA').rpUuid;
    gpuRp = deployables.body.items.find((d: any) => d.resourceClass === 'PGPU').rpUuid;
    for (const [name, groups] of [
      ['fpga-dp', [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }]],
      ['two-fpga', [{ 'resources:FPGA': '2' }]],
      ['gpu-dp', [{ 'resources:PGPU': '1' }]],
    ] as const) {
      const created = await ledger.request('POST', '/v2/device_profiles', { token: admin, body: [{ name, groups }] });
      expect(created.status).toBe(201);
    }
  });

  afterAll(async () => {
    await ledger?.close();
    await nova?.close();
  });

  const createArqs = async (profile: string, token = tenant) => {
    const response = await ledger.request('POST', '/v2/accelerator_requests', { token, body: { device_profile_name: profile } });
    expect(response.status).toBe(201);
    return response.body.arqs as any[];
  };
  const bindBody = (uuid: string, rp: string, instance = INSTANCE) => ({
    [uuid]: [
      { op: 'add', path: '/hostname', value: 'compute-1' },
      { op: 'add', path: '/device_rp_uuid', value: rp },
      { op: 'add', path: '/instance_uuid', value: instance },
    ],
  });

  it('walks create → bind → Nova event → poll by instance → delete by instance, as Nova does', async () => {
    const [arq] = await createArqs('fpga-dp', nova_);
    expect(arq).toMatchObject({ state: 'Initial', device_profile_name: 'fpga-dp', device_profile_group_id: 0, attach_handle_type: '', attach_handle_info: {} });
    const bind = await ledger.request('PATCH', '/v2/accelerator_requests', { token: nova_, body: bindBody(arq.uuid, fpgaRp) });
    expect(bind.status).toBe(202);
    await nova.waitFor((events) => events.some((event) => event.tag === arq.uuid));
    expect(nova.events).toContainEqual({ name: 'accelerator-request-bound', server_uuid: INSTANCE, tag: arq.uuid, status: 'completed' });
    expect(nova.requests.at(-1)!.headers['x-auth-token']).toBe('nova-admin-token');
    const polled = await ledger.request('GET', `/v2/accelerator_requests?instance=${INSTANCE}&bind_state=resolved`, { token: nova_ });
    expect(polled.status).toBe(200);
    expect(polled.body.arqs).toHaveLength(1);
    expect(polled.body.arqs[0]).toMatchObject({
      uuid: arq.uuid,
      state: 'Bound',
      hostname: 'compute-1',
      device_rp_uuid: fpgaRp,
      instance_uuid: INSTANCE,
      project_id: 'tenant-a',
      attach_handle_type: 'PCI',
      attach_handle_info: { domain: '0000', bus: '5e', device: '00', function: '1' },
    });
    const removed = await ledger.request('DELETE', `/v2/accelerator_requests?instance=${INSTANCE}`, { token: nova_ });
    expect(removed.status).toBe(204);
    const after = await ledger.request('GET', `/v2/accelerator_requests?instance=${INSTANCE}`, { token: nova_ });
    expect(after.body.arqs).toEqual([]);
  });
});
