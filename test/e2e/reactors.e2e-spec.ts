import { eventually } from '@ledger/processing/testing';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { type NovaSink, startNovaSink } from '../support/nova-sink';

const INSTANCE = '11111111-2222-4333-8444-999999999999';

describe('reactors over the native API: status, parked events, retry, /readyz', () => {
  let ledger: TestLedger;
  let nova: NovaSink;
  let admin: string;
  let manager: string;

  beforeAll(async () => {
    nova = await startNovaSink();
    ledger = await startTestLedger({ LEDGER_NOVA_URL: nova.url });
    admin = ledger.adminToken;
    manager = ledger.token({ user: 'mo', project: 'tenant-a', roles: ['manager'] });
    const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
    const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 0) });
    expect(report.status).toBe(200);
    const profile = await ledger.request('POST', '/v2/device_profiles', { token: admin, body: [{ name: 'fpga-dp', groups: [{ 'resources:FPGA': '1' }] }] });
    expect(profile.status).toBe(201);
  });

  afterAll(async () => {
    await ledger?.close();
    await nova?.close();
  });

  const reactors = async () => (await ledger.request('GET', '/api/v1/reactors', { token: manager })).body.items as { name: string; state: string; parked: number; unavailableSince?: string }[];
  const bindOne = async () => {
    const nova_ = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova_, body: { device_profile_name: 'fpga-dp' } });
    const arq = created.body.arqs[0].uuid as string;
    const deployables = await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', { token: admin });
    const rp = deployables.body.items.find((d: { resourceClass: string }) => d.resourceClass === 'FPGA').rpUuid;
    const patch = [
      { op: 'add', path: '/hostname', value: 'compute-1' },
      { op: 'add', path: '/device_rp_uuid', value: rp },
      { op: 'add', path: '/instance_uuid', value: INSTANCE },
    ];
    expect((await ledger.request('PATCH', '/v2/accelerator_requests', { token: nova_, body: { [arq]: patch } })).status).toBe(202);
    return arq;
  };

  it('parks what Nova keeps refusing, shows it, and delivers it on an admin retry', async () => {
    nova.respondWith(400);
    const arq = await bindOne();
    await eventually(async () => (await reactors()).some((reactor) => reactor.name === 'nova-notifier' && reactor.parked === 1));
    const ready = await ledger.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.reactors).toEqual({ ok: true, detail: 'nova-notifier: 1 parked' });

    const parked = await ledger.request('GET', '/api/v1/reactors/nova-notifier/parked', { token: manager });
    expect(parked.body.items).toEqual([
      expect.objectContaining({ reactor: 'nova-notifier', type: 'allocation.ArqBound', stream: `arq-${arq}`, attempts: 5, error: expect.stringContaining('Nova answered 400') }),
    ]);
    const position = parked.body.items[0].position as number;

    const retryPath = `/api/v1/reactors/nova-notifier/parked/${position}/retry`;
    const byManager = await ledger.request('POST', retryPath, { token: manager });
    expect([byManager.status, byManager.headers.get('x-error-code')]).toEqual([403, 'AUTH.ROLE_REQUIRED']);
    const badPosition = await ledger.request('POST', '/api/v1/reactors/nova-notifier/parked/x1/retry', { token: admin });
    expect([badPosition.status, badPosition.headers.get('x-error-code')]).toEqual([400, 'REACTOR.INVALID']);
    const nobody = await ledger.request('POST', `/api/v1/reactors/nobody/parked/${position}/retry`, { token: admin });
    expect([nobody.status, nobody.headers.get('x-error-code')]).toEqual([404, 'REACTOR.NOT_FOUND']);
    const notParked = await ledger.request('POST', `/api/v1/reactors/nova-notifier/parked/${position + 1000}/retry`, { token: admin });
    expect([notParked.status, notParked.headers.get('x-error-code')]).toEqual([404, 'REACTOR.PARKED_NOT_FOUND']);
    expect(nova.events).toEqual([]);

    nova.respondWith(200);
    const retried = await ledger.request('POST', retryPath, { token: admin });
    expect([retried.status, retried.body]).toEqual([200, { reactor: 'nova-notifier', position, outcome: 'delivered' }]);
    expect(nova.events).toEqual([{ name: 'accelerator-request-bound', server_uuid: INSTANCE, tag: arq, status: 'completed' }]);
    expect((await ledger.request('GET', '/api/v1/reactors/nova-notifier/parked', { token: manager })).body.items).toEqual([]);
  });

  it('reports a Nova that is down, with since when, without making the ledger unready', async () => {
    nova.respondWith(503);
    const arq = await ledger.request('DELETE', `/v2/accelerator_requests?instance=${INSTANCE}`, { token: ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] }) });
    expect(arq.status).toBe(204);
    await bindOne();
    await eventually(async () => (await reactors()).some((reactor) => reactor.state === 'unavailable'));
    const [notifier] = await reactors();
    expect(notifier).toMatchObject({ name: 'nova-notifier', state: 'unavailable', parked: 0, unavailableSince: expect.stringMatching(/^\d{4}-/) });
    const ready = await ledger.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.reactors.detail).toBe(`nova-notifier: unavailable since ${notifier.unavailableSince}`);
    nova.respondWith(200);
    await nova.waitFor((events) => events.length === 2);
    await eventually(async () => (await reactors())[0].state === 'live');
  });
});
