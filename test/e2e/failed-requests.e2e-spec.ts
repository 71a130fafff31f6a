import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';

/** A refusal that needs nothing recorded first. */
const none = async (): Promise<string> => '';

/**
 * What docs/errors.md promises about failed requests: a refusal (every 4xx
 * of validation, authentication, authorisation and the pre-checks) records
 * nothing; a bind that fails after it started records the attempt.
 */
describe('failed requests: which leave a trace in the log', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let gpuRp: string;
  let fpgaRp: string;
  const member = () => ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
  const nova = () => ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
  const json = (rawBody: string) => ({ rawBody, headers: { 'content-type': 'application/json' } });

  beforeAll(async () => {
    ledger = await startTestLedger();
    store = ledger.app.get<EventStore>(EVENT_STORE);
    const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
    const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 0) });
    expect(report.status).toBe(200);
    const deployables = await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', {
      token: ledger.adminToken,
      headers: { 'x-ledger-min-position': String(report.body.position) },
    });
    gpuRp = deployables.body.items.find((d: any) => d.resourceClass === 'PGPU').rpUuid;
    fpgaRp = deployables.body.items.find((d: any) => d.resourceClass === 'FPGA').rpUuid;
    for (const [name, resource] of [['gpu', 'PGPU'], ['fpga', 'FPGA']]) {
      const profile = await ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name, groups: [{ [`resources:${resource}`]: '1' }] }] });
      expect(profile.status).toBe(201);
    }
  });
  afterAll(() => ledger?.close());

  const createArq = async (profile: string): Promise<string> => {
    const response = await ledger.request('POST', '/v2/accelerator_requests', { token: nova(), body: { device_profile_name: profile } });
    expect(response.status).toBe(201);
    return response.body.arqs[0].uuid;
  };
  const bindBody = (arq: string, rp: string, instance: string) => ({
    [arq]: [
      { op: 'add', path: '/hostname', value: 'compute-1' },
      { op: 'add', path: '/device_rp_uuid', value: rp },
      { op: 'add', path: '/instance_uuid', value: instance },
    ],
  });
  const bind = (arq: string, rp: string, instance: string, token = nova()) =>
    ledger.request('PATCH', '/v2/accelerator_requests', { token, body: bindBody(arq, rp, instance) });

  /** Each refusal: what it needs recorded first (not counted), then the request refused. */
  const refusals: [kind: string, status: number, code: string, prepare: () => Promise<string>, send: (arq: string) => Promise<TestResponse>][] = [
    ['not JSON', 400, 'REQUEST.MALFORMED_JSON', none, () => ledger.request('PUT', '/api/v1/quotas/tenant-a', { token: ledger.adminToken, ...json('{') })],
    ['nested too deep', 400, 'REQUEST.TOO_DEEP', none, () => ledger.request('PUT', '/api/v1/quotas/tenant-a', { token: ledger.adminToken, ...json('['.repeat(100)) })],
    ['a body of the wrong shape', 400, 'REQUEST.INVALID', none, () => ledger.request('PUT', '/api/v1/quotas/tenant-a', { token: ledger.adminToken, body: { limits: 'many' } })],
    ['no token', 401, 'AUTH.TOKEN_MISSING', none, () => ledger.request('POST', '/v2/accelerator_requests', { body: { device_profile_name: 'gpu' } })],
    ['a policy rule the caller does not pass', 403, 'AUTH.POLICY_DENIED', none, () => ledger.request('POST', '/v2/device_profiles', { token: member(), body: [{ name: 'x', groups: [{ 'resources:FPGA': '1' }] }] })],
    ['a device profile breaking a rule', 400, 'DEVICE_PROFILE.INVALID', none, () => ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name: 'x', groups: [{ 'resources:FPGA': '-1' }] }] })],
    ['an unknown device profile', 404, 'DEVICE_PROFILE.NOT_FOUND', none, () => ledger.request('POST', '/v2/accelerator_requests', { token: nova(), body: { device_profile_name: 'nothing' } })],
    ['a bind to an unknown provider', 400, 'ARQ.INVALID', () => createArq('fpga'), (arq) => bind(arq, crypto.randomUUID(), crypto.randomUUID())],
    ['a bind to a provider of another resource class', 409, 'ARQ.PROVIDER_MISMATCH', () => createArq('fpga'), (arq) => bind(arq, gpuRp, crypto.randomUUID())],
    ['a heartbeat of a host that never reported', 404, 'INVENTORY.HOST_NOT_FOUND', none, () => ledger.request('POST', '/api/v1/hosts/compute-9/heartbeat', { token: ledger.adminToken, body: { agentVersion: '0.1.0', intervalSeconds: 3600, devices: [] } })],
  ];

  it.each(refusals)('records nothing for a refusal: %s (%i %s)', async (_kind, status, code, prepare, send) => {
    const arq = await prepare();
    const before = await store.headPosition();
    const response = await send(arq);
    expect({ status: response.status, code: response.headers.get('x-error-code') }).toEqual({ status, code });
    expect(await store.headPosition()).toBe(before);
  });

  it('records the attempt of a bind the device refuses: started and failed on the request — and nothing else', async () => {
    const [first, second] = [await createArq('gpu'), await createArq('gpu')];
    expect((await bind(first, gpuRp, crypto.randomUUID())).status).toBe(202); // the GPU's one attach handle
    const before = await store.headPosition();
    const failed = await bind(second, gpuRp, crypto.randomUUID());
    expect({ status: failed.status, code: failed.headers.get('x-error-code') }).toEqual({ status: 409, code: 'ARQ.BIND_FAILED' });
    const { events } = await store.readAll({ after: before });
    // A bind with nothing to program is one decision: refused by the device, it charged no quota and held nothing, and ran no workflow.
    const facts = events.map((event) => `${event.type} ${event.stream}`);
    expect(facts).toEqual([`allocation.ArqBindStarted arq-${second}`, `allocation.ArqBindFailed arq-${second}`]);
    expect((events[1].data as { code: string }).code).toBe('INVENTORY.NO_FREE_ATTACH_HANDLE');
  });
});
