import { arqDecider, arqStream } from '@ledger/allocation';
import { Client } from 'pg';
import { EVENT_STORE, type EventStore, handleCommand } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { startNovaSink, type NovaSink } from '../support/nova-sink';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { hostReportBody } from '../support/fleet';
import { describeWithService, postgresUnavailable, postgresUrl } from '../support/services';

const INSTANCE = '11111111-2222-4333-8444-555555555555';
const V2_1 = { 'openstack-api-version': 'accelerator 2.1' };

/** The whole v2 ARQ surface against one ledger on the given store. */
function acceleratorRequestSuite(storeEnv: () => Record<string, string>, cleanupStore: () => Promise<void>) {
  let ledger: TestLedger;
  let nova: NovaSink;
  let admin: string;
  let nova_: string; // Nova: the tenant's token plus its own service role
  let tenant: string;
  let reader: string;
  let otherTenant: string;
  let fpgaRp: string;
  let gpuRp: string;
  let store: EventStore;
  let fpgaHandles: number;


  beforeAll(async () => {
    nova = await startNovaSink();
    ledger = await startTestLedger({ ...storeEnv(), LEDGER_NOVA_URL: nova.url, LEDGER_NOVA_TOKEN: 'nova-admin-token', LEDGER_BIND_TIMEOUT_MS: '60000' });
    store = ledger.app.get<EventStore>(EVENT_STORE);
    admin = ledger.adminToken;
    nova_ = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    tenant = ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
    reader = ledger.token({ user: 'rita', project: 'tenant-a', roles: ['reader'] });
    otherTenant = ledger.token({ user: 'bob', project: 'tenant-b', roles: ['member', 'service'] });
    const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
    const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 0) });
    expect(report.status).toBe(200);
    const deployables = await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', { token: admin, headers: { 'x-ledger-min-position': String(report.body.position) } });
    const fpga = deployables.body.items.find((d: any) => d.resourceClass === 'FPGA');
    fpgaRp = fpga.rpUuid;
    fpgaHandles = fpga.count;
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
    await cleanupStore();
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
    // Nova calls with the user's token and its own in X-Service-Token, at microversion 2.0 (no header).
    const asNova = { 'x-service-token': ledger.token({ user: 'nova', project: 'service', roles: ['service'] }) };
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: tenant, headers: asNova, body: { device_profile_name: 'fpga-dp' } });
    expect(created.status).toBe(201);
    const [arq] = created.body.arqs;
    expect(arq).toMatchObject({ state: 'Initial', device_profile_name: 'fpga-dp', device_profile_group_id: 0, attach_handle_type: '', attach_handle_info: {} });
    const bound = await ledger.request('PATCH', '/v2/accelerator_requests', { token: tenant, headers: asNova, body: bindBody(arq.uuid, fpgaRp) });
    expect(bound.status).toBe(202);
    await nova.waitFor((events) => events.some((event) => event.tag === arq.uuid));
    expect(nova.events).toContainEqual({ name: 'accelerator-request-bound', server_uuid: INSTANCE, tag: arq.uuid, status: 'completed' });
    expect(nova.requests.at(-1)!.headers).toMatchObject({ 'x-auth-token': 'nova-admin-token', 'x-openstack-nova-api-version': '2.82' });
    // Once Nova has its event, a poll must show the request bound (the outbox is written with the read model).
    const polled = await ledger.request('GET', `/v2/accelerator_requests?instance=${INSTANCE}&bind_state=resolved`, { token: tenant, headers: asNova });
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
    const removed = await ledger.request('DELETE', `/v2/accelerator_requests?instance=${INSTANCE}`, { token: tenant, headers: asNova });
    expect(removed.status).toBe(204);
    const after = await ledger.request('GET', `/v2/accelerator_requests?instance=${INSTANCE}`, { token: tenant });
    expect(after.body.arqs).toEqual([]);
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?instance=${INSTANCE}`, { token: tenant, headers: asNova })).status).toBe(204);
  });

  const bind = (body: unknown, token = nova_, path = '/v2/accelerator_requests', headers: Record<string, string> = {}) =>
    ledger.request('PATCH', path, { token, body, headers });
  const unbindBody = (uuid: string) => ({
    [uuid]: [
      { op: 'remove', path: '/hostname' },
      { op: 'remove', path: '/device_rp_uuid' },
      { op: 'remove', path: '/instance_uuid' },
    ],
  });
  const newInstance = () => `${crypto.randomUUID()}`;
  const show = async (uuid: string, token = nova_) => (await ledger.request('GET', `/v2/accelerator_requests/${uuid}`, { token })).body;
  const cleanUp = async (uuids: string[]) => {
    if (uuids.length === 0) return;
    const removed = await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${uuids.join(',')}`, { token: nova_ });
    expect(removed.status).toBe(204);
  };

  it('serves a path without a version as /v2, as Cyborg does (clients whose endpoint lacks /v2)', async () => {
    const [arq] = await createArqs('fpga-dp');
    const unversioned = await ledger.request('GET', `/accelerator_requests/${arq.uuid}`, { token: tenant });
    expect(unversioned.status).toBe(200);
    expect(unversioned.body.uuid).toBe(arq.uuid);
    expect(unversioned.headers.get('openstack-api-version')).toBe('accelerator 2.0');
    expect((await ledger.request('GET', '/accelerator_requestsX', { token: tenant })).status).toBe(404);
    await cleanUp([arq.uuid]);
  });

  it('creates one request per unit across groups, and only the asked group with device_profile_group_id', async () => {
    const all = await createArqs('two-fpga');
    expect(all.map((arq) => arq.device_profile_group_id)).toEqual([0, 0]);
    expect(new Set(all.map((arq) => arq.uuid)).size).toBe(2);
    expect(Object.keys(all[0])).toEqual([
      'uuid', 'state', 'device_profile_name', 'device_profile_group_id', 'hostname', 'device_rp_uuid', 'instance_uuid',
      'project_id', 'attach_handle_type', 'attach_handle_info', 'links', 'created_at', 'updated_at',
    ]);
    const one = await ledger.request('POST', '/v2/accelerator_requests', { token: tenant, body: { device_profile_name: 'two-fpga', device_profile_group_id: '0' } });
    expect(one.status).toBe(201);
    expect(one.body.arqs).toHaveLength(2);
    await cleanUp([...all, ...one.body.arqs].map((arq: any) => arq.uuid));
  });

  it('binds on the one-request path (the openstack client) and on the collection, unbinds, and binds again', async () => {
    const [a, b] = await createArqs('two-fpga');
    const instance = newInstance();
    expect((await bind(bindBody(a.uuid, fpgaRp, instance), nova_, `/v2/accelerator_requests/${a.uuid}`)).status).toBe(202);
    expect((await bind(bindBody(b.uuid, fpgaRp, newInstance()))).status).toBe(202);
    const [boundA, boundB] = [await show(a.uuid), await show(b.uuid)];
    expect([boundA.state, boundB.state]).toEqual(['Bound', 'Bound']);
    expect(boundA.attach_handle_info).not.toEqual(boundB.attach_handle_info);
    expect((await bind(unbindBody(a.uuid), nova_, `/v2/accelerator_requests/${a.uuid}`)).status).toBe(202);
    expect(await show(a.uuid)).toMatchObject({ state: 'Unbound', hostname: null, instance_uuid: null, attach_handle_type: '', attach_handle_info: {} });
    expect((await bind(unbindBody(a.uuid))).status).toBe(202); // unbinding an unbound request changes nothing
    expect((await bind(bindBody(a.uuid, fpgaRp, instance))).status).toBe(202);
    expect((await show(a.uuid)).state).toBe('Bound');
    await cleanUp([a.uuid, b.uuid]);
  });

  it('gets an operator from a request to its latest bind: the native view names it, and a bind with nothing to program runs no workflow', async () => {
    const [arq] = await createArqs('fpga-dp');
    expect((await bind(bindBody(arq.uuid, fpgaRp, newInstance()))).status).toBe(202);
    expect((await bind(unbindBody(arq.uuid))).status).toBe(202);
    expect((await bind(bindBody(arq.uuid, fpgaRp, newInstance()))).status).toBe(202);
    const bindIds = (await store.readStream(arqStream(arq.uuid))).filter((event) => event.type === 'allocation.ArqBindStarted').map((event) => (event.data as { bindId: string }).bindId);
    expect(bindIds).toHaveLength(2);
    const latest = bindIds[1];
    // Decided at once (one append over the request, the device and the quota): the request's own stream is its whole story.
    expect((await ledger.request('GET', `/api/v1/workflows?arq=${arq.uuid.toUpperCase()}`, { token: admin })).body.items).toEqual([]);
    const query = `{ acceleratorRequest(uuid: "${arq.uuid}") { lastBindId } workflows(arq: "${arq.uuid}") { edges { node { id subject } } } }`;
    expect((await ledger.request('POST', '/graphql', { token: admin, body: { query } })).body.data).toEqual({ acceleratorRequest: { lastBindId: latest }, workflows: { edges: [] } });
    // The tenant sees its request's latest bind too; /v2 stays Cyborg's format.
    expect((await ledger.request('POST', '/graphql', { token: tenant, body: { query: `{ acceleratorRequest(uuid: "${arq.uuid}") { lastBindId } }` } })).body.data).toEqual({
      acceleratorRequest: { lastBindId: latest },
    });
    expect(Object.keys(await show(arq.uuid))).not.toContain('lastBindId');
    const refused = await ledger.request('GET', '/api/v1/workflows?arq=not-a-uuid', { token: admin });
    expect([refused.status, refused.body.code]).toEqual([400, 'REQUEST.INVALID']);
    await cleanUp([arq.uuid]);
  });

  it('answers state conflicts with 409 (Cyborg: 500) and refuses hot-add like Cyborg, recording nothing', async () => {
    const [a] = await createArqs('fpga-dp');
    const [b] = await createArqs('fpga-dp');
    const instance = newInstance();
    expect((await bind(bindBody(a.uuid, fpgaRp, instance))).status).toBe(202);
    const before = await store.headPosition();
    const rebind = await bind(bindBody(a.uuid, fpgaRp, newInstance()));
    expect(rebind.status).toBe(409);
    expect(rebind.headers.get('x-error-code')).toBe('ARQ.BAD_STATE');
    expect(rebind.body).toEqual({ error_message: expect.stringContaining('is Bound'), message: rebind.body.error_message });
    const hotAdd = await bind(bindBody(b.uuid, fpgaRp, instance));
    expect(hotAdd.status).toBe(400);
    expect(hotAdd.body.error_message).toContain(`Instance ${instance} already has accelerator requests. Cannot bind additional ARQs.`);
    const mismatch = await bind(bindBody(b.uuid, gpuRp));
    expect([mismatch.status, mismatch.headers.get('x-error-code')]).toEqual([409, 'ARQ.PROVIDER_MISMATCH']);
    expect(await store.headPosition()).toBe(before);
    expect((await bind(bindBody(a.uuid, fpgaRp, instance))).status).toBe(202); // the same bind again is a repeat, not a conflict
    expect(await store.headPosition()).toBe(before);
    await cleanUp([a.uuid, b.uuid]);
  });

  it('gives every concurrent bind its own attach handle, and fails the ones left without (Nova hears "failed")', async () => {
    const arqs = (await Promise.all(Array.from({ length: fpgaHandles + 2 }, () => createArqs('fpga-dp')))).flat();
    const instances = arqs.map(() => newInstance());
    const results = await Promise.all(arqs.map((arq, i) => bind(bindBody(arq.uuid, fpgaRp, instances[i]))));
    const statuses = results.map((result) => result.status).sort();
    expect(statuses.filter((status) => status === 202)).toHaveLength(fpgaHandles);
    expect(statuses.filter((status) => status === 409)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409).every((r) => r.headers.get('x-error-code') === 'ARQ.BIND_FAILED')).toBe(true);
    const states = await Promise.all(arqs.map((arq) => show(arq.uuid)));
    const bound = states.filter((arq) => arq.state === 'Bound');
    expect(new Set(bound.map((arq) => JSON.stringify(arq.attach_handle_info))).size).toBe(fpgaHandles);
    const failed = states.filter((arq) => arq.state === 'BindFailed');
    expect(failed).toHaveLength(2);
    await nova.waitFor((events) => failed.every((arq) => events.some((e) => e.tag === arq.uuid && e.status === 'failed')));
    await cleanUp(arqs.map((arq) => arq.uuid));
  });

  it('keeps tenants apart: another project neither sees nor touches a request; an admin sees all', async () => {
    const [arq] = await createArqs('fpga-dp');
    const theirs = await ledger.request('GET', '/v2/accelerator_requests', { token: otherTenant });
    expect(theirs.body.arqs.map((a: any) => a.uuid)).not.toContain(arq.uuid);
    expect((await ledger.request('GET', `/v2/accelerator_requests/${arq.uuid}`, { token: otherTenant })).status).toBe(404);
    expect((await bind(bindBody(arq.uuid, fpgaRp), otherTenant)).status).toBe(404);
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${arq.uuid}`, { token: otherTenant })).status).toBe(404);
    expect((await ledger.request('GET', `/v2/accelerator_requests/${arq.uuid}`, { token: reader })).status).toBe(200);
    const all = await ledger.request('GET', '/v2/accelerator_requests', { token: admin });
    expect(all.body.arqs.map((a: any) => a.uuid)).toContain(arq.uuid);
    await cleanUp([arq.uuid]);
  });

  it('needs the service role to bind, to delete by instance and to delete a bound request', async () => {
    const [arq] = await createArqs('fpga-dp');
    const before = await store.headPosition();
    expect((await bind(bindBody(arq.uuid, fpgaRp), tenant)).status).toBe(403);
    const serviceToken = ledger.token({ user: 'nova-service', project: 'service', roles: ['service'] });
    expect((await bind(bindBody(arq.uuid, fpgaRp), tenant, '/v2/accelerator_requests', { 'x-service-token': serviceToken })).status).toBe(202);
    expect(await store.headPosition()).toBeGreaterThan(before);
    const plain = await ledger.request('DELETE', `/v2/accelerator_requests/${arq.uuid}`, { token: tenant });
    expect([plain.status, plain.headers.get('x-error-code')]).toEqual([403, 'ARQ.SERVICE_ROLE_REQUIRED']);
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?instance=${INSTANCE}`, { token: tenant })).status).toBe(403);
    const bogus = await ledger.request('GET', '/v2/accelerator_requests', { token: tenant, headers: { 'x-service-token': tenant } });
    expect([bogus.status, bogus.headers.get('x-error-code')]).toEqual([403, 'AUTH.SERVICE_TOKEN_ROLE']);
    expect((await ledger.request('DELETE', `/v2/accelerator_requests/${arq.uuid}`, { token: nova_ })).status).toBe(204);
    expect((await ledger.request('GET', `/v2/accelerator_requests/${arq.uuid}`, { token: nova_ })).status).toBe(404);
  });

  it('deletes by ?arqs= all or nothing, and by ?instance= idempotently', async () => {
    const [a] = await createArqs('fpga-dp');
    const unknown = crypto.randomUUID();
    const before = await store.headPosition();
    const partial = await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${a.uuid},${unknown}`, { token: nova_ });
    expect(partial.status).toBe(404);
    expect(await store.headPosition()).toBe(before);
    expect((await show(a.uuid)).state).toBe('Initial');
    const nobody = newInstance();
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?instance=${nobody}`, { token: nova_ })).status).toBe(204);
    await cleanUp([a.uuid]);
  });

  it('refuses every malformed request with a 4xx and a stable code, changing nothing', async () => {
    const [arq] = await createArqs('fpga-dp');
    const u = arq.uuid;
    const ops = (o: unknown) => ({ [u]: o });
    const cases: [string, () => Promise<{ status: number; headers: Headers }>, number, string][] = [
      ['create: a list', () => ledger.request('POST', '/v2/accelerator_requests', { token: tenant, body: [{ device_profile_name: 'fpga-dp' }] }), 400, 'ARQ.INVALID'],
      ['create: unknown member', () => ledger.request('POST', '/v2/accelerator_requests', { token: tenant, body: { device_profile_name: 'fpga-dp', x: 1 } }), 400, 'ARQ.INVALID'],
      ['create: no profile name', () => ledger.request('POST', '/v2/accelerator_requests', { token: tenant, body: {} }), 400, 'ARQ.INVALID'],
      ['create: unknown profile', () => ledger.request('POST', '/v2/accelerator_requests', { token: tenant, body: { device_profile_name: 'nope' } }), 404, 'DEVICE_PROFILE.NOT_FOUND'],
      ['create: group out of range', () => ledger.request('POST', '/v2/accelerator_requests', { token: tenant, body: { device_profile_name: 'fpga-dp', device_profile_group_id: 3 } }), 400, 'ARQ.INVALID'],
      ['create: bad group id', () => ledger.request('POST', '/v2/accelerator_requests', { token: tenant, body: { device_profile_name: 'fpga-dp', device_profile_group_id: 'x' } }), 400, 'ARQ.INVALID'],
      ['create: malformed JSON', () => ledger.request('POST', '/v2/accelerator_requests', { token: tenant, rawBody: '{"device_profile_name":', headers: { 'content-type': 'application/json' } }), 400, 'REQUEST.MALFORMED_JSON'],
      ['create: too large', () => ledger.request('POST', '/v2/accelerator_requests', { token: tenant, body: { device_profile_name: 'x'.repeat(2_000_000) } }), 413, 'REQUEST.TOO_LARGE'],
      ['patch: a list', () => bind([{ op: 'add' }]), 400, 'ARQ.INVALID'],
      ['patch: empty map', () => bind({}), 400, 'ARQ.INVALID'],
      ['patch: key not a uuid', () => bind({ 'not-a-uuid': [] }), 400, 'ARQ.INVALID'],
      ['patch: ops not a list', () => bind(ops({ op: 'add' })), 400, 'ARQ.INVALID'],
      ['patch: unknown path', () => bind(ops([{ op: 'add', path: '/state', value: 'Bound' }])), 400, 'ARQ.INVALID'],
      ['patch: unknown op', () => bind(ops([{ op: 'replace', path: '/hostname', value: 'h' }])), 400, 'ARQ.INVALID'],
      ['patch: mixed add and remove', () => bind(ops([{ op: 'add', path: '/hostname', value: 'compute-1' }, { op: 'remove', path: '/instance_uuid' }])), 400, 'ARQ.INVALID'],
      ['patch: a bind field missing', () => bind(ops([{ op: 'add', path: '/hostname', value: 'compute-1' }])), 400, 'ARQ.INVALID'],
      ['patch: path twice', () => bind(ops([{ op: 'add', path: '/hostname', value: 'a' }, { op: 'add', path: '/hostname', value: 'b' }])), 400, 'ARQ.INVALID'],
      ['patch: bad rp uuid', () => bind({ [u]: bindBody(u, 'nope')[u] }), 400, 'ARQ.INVALID'],
      ['patch: unknown provider', () => bind(bindBody(u, crypto.randomUUID())), 400, 'ARQ.INVALID'],
      ['patch: unknown request', () => bind(bindBody(crypto.randomUUID(), fpgaRp)), 404, 'ARQ.NOT_FOUND'],
      ['patch: /project_id below 2.1', () => bind(ops([...bindBody(u, fpgaRp)[u], { op: 'add', path: '/project_id', value: 'tenant-a' }])), 406, 'V2.VERSION_NOT_ACCEPTABLE'],
      ['patch: /project_id by a non-admin', () => bind(ops([...bindBody(u, fpgaRp)[u], { op: 'add', path: '/project_id', value: 'tenant-a' }]), nova_, '/v2/accelerator_requests', V2_1), 403, 'AUTH.ROLE_REQUIRED'],
      ['patch: one-request path naming another', () => bind(bindBody(u, fpgaRp), nova_, `/v2/accelerator_requests/${crypto.randomUUID()}`), 400, 'ARQ.INVALID'],
      ['patch: bad microversion', () => bind(bindBody(u, fpgaRp), nova_, '/v2/accelerator_requests', { 'openstack-api-version': 'accelerator 2.9' }), 406, 'V2.VERSION_NOT_ACCEPTABLE'],
      ['list: bad instance', () => ledger.request('GET', '/v2/accelerator_requests?instance=x', { token: tenant }), 400, 'ARQ.INVALID'],
      ['list: bad bind_state', () => ledger.request('GET', `/v2/accelerator_requests?instance=${INSTANCE}&bind_state=bound`, { token: tenant }), 400, 'ARQ.INVALID'],
      ['list: unknown parameter', () => ledger.request('GET', '/v2/accelerator_requests?state=Bound', { token: tenant }), 400, 'ARQ.INVALID'],
      ['delete: neither parameter', () => ledger.request('DELETE', '/v2/accelerator_requests', { token: nova_ }), 400, 'ARQ.INVALID'],
      ['delete: both parameters', () => ledger.request('DELETE', `/v2/accelerator_requests?arqs=${u}&instance=${INSTANCE}`, { token: nova_ }), 400, 'ARQ.INVALID'],
      ['delete: bad uuid in list', () => ledger.request('DELETE', `/v2/accelerator_requests?arqs=${u},x`, { token: nova_ }), 400, 'ARQ.INVALID'],
      ['get: not a uuid', () => ledger.request('GET', '/v2/accelerator_requests/x', { token: tenant }), 404, 'ARQ.NOT_FOUND'],
      ['no token', () => ledger.request('GET', '/v2/accelerator_requests', {}), 401, 'AUTH.TOKEN_MISSING'],
    ];
    const before = await store.headPosition();
    for (const [name, call, status, code] of cases) {
      const response = await call();
      expect({ name, status: response.status, code: response.headers.get('x-error-code') }).toEqual({ name, status, code });
    }
    expect(await store.headPosition()).toBe(before);
    expect((await show(u)).state).toBe('Initial');
    await cleanUp([u]);
  });

  it('holds quota from create to delete: exactly the limit succeeds, and a delete gives the unit back', async () => {
    const quotaTenant = ledger.token({ user: 'q', project: 'tenant-q', roles: ['member', 'service'] });
    expect((await ledger.request('PUT', '/api/v1/quotas/tenant-q', { token: admin, body: { limits: { FPGA: 3, 'capacity:memoryGiB': 80 } } })).status).toBe(200);
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () => ledger.request('POST', '/v2/accelerator_requests', { token: quotaTenant, body: { device_profile_name: 'fpga-dp' } })),
    );
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(3);
    expect(attempts.filter((r) => r.status === 403).every((r) => r.headers.get('x-error-code') === 'QUOTA.EXCEEDED')).toBe(true);
    const created = attempts.filter((r) => r.status === 201).map((r) => r.body.arqs[0].uuid);
    expect((await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${created[0]}`, { token: quotaTenant })).status).toBe(204);
    const again = await ledger.request('POST', '/v2/accelerator_requests', { token: quotaTenant, body: { device_profile_name: 'fpga-dp' } });
    expect(again.status).toBe(201);
    // Capacity: one 80 GiB GPU fits the 80 GiB limit, a second does not; the refused bind records nothing.
    const gpus = (await Promise.all([1, 2].map(() => ledger.request('POST', '/v2/accelerator_requests', { token: quotaTenant, body: { device_profile_name: 'gpu-dp' } })))).map((r) => r.body.arqs[0].uuid);
    expect((await bind(bindBody(gpus[0], gpuRp, newInstance()), quotaTenant)).status).toBe(202);
    const before = await store.headPosition();
    const second = await bind(bindBody(gpus[1], gpuRp, newInstance()), quotaTenant);
    expect([second.status, second.headers.get('x-error-code')]).toEqual([403, 'QUOTA.EXCEEDED']);
    expect(await store.headPosition()).toBe(before);
    const usage = await ledger.request('GET', '/api/v1/quotas/tenant-q', { token: admin });
    expect(usage.body.usage).toMatchObject({ FPGA: 3, PGPU: 2, 'capacity:memoryGiB': 80 });
    await ledger.request('DELETE', `/v2/accelerator_requests?arqs=${[...created.slice(1), again.body.arqs[0].uuid, ...gpus].join(',')}`, { token: quotaTenant });
    const released = await ledger.request('GET', '/api/v1/quotas/tenant-q', { token: admin });
    expect(released.body.usage).toEqual({});
  });

  it('answers 423 while an instance still binds, and resumes a bind whose process died after its first step (Nova hears "bound")', async () => {
    const [arq] = await createArqs('fpga-dp');
    const instance = newInstance();
    const bindId = crypto.randomUUID();
    const provider = (await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', { token: admin })).body.items.find((d: any) => d.rpUuid === fpgaRp);
    const binding = { hostname: 'compute-1', deviceRpUuid: fpgaRp, instanceUuid: instance, deviceUuid: provider.deviceUuid, deployableUuid: provider.uuid };
    // What a process that died mid-bind leaves: the workflow's start recorded, its first command's effect (BindStarted) landed, nothing after.
    const context = { actor: { user: 'test', project: null, roles: [] }, correlationId: crypto.randomUUID() };
    await handleCommand(store, arqStream(arq.uuid), arqDecider, { type: 'StartBind', uuid: arq.uuid, bindId, ...binding, at: new Date().toISOString() }, context);
    const polled = await ledger.request('GET', `/v2/accelerator_requests?instance=${instance}&bind_state=resolved`, { token: nova_ });
    expect(polled.status).toBe(423);
    expect(polled.body).toBeUndefined();
    const start = { arqUuid: arq.uuid, projectId: 'tenant-a', bindId, binding, capacity: {}, program: null };
    await store.append(
      `workflow-bind-${bindId}`,
      [{ type: 'workflow.InputRecorded', data: { input: { kind: 'start', id: bindId, at: new Date().toISOString(), data: start } }, metadata: { ...context, causationId: null, schemaVersion: 1 } }],
      { expected: 'no_stream' },
    );
    await nova.waitFor((events) => events.some((e) => e.tag === arq.uuid && e.status === 'completed'));
    const resolved = await ledger.request('GET', `/v2/accelerator_requests?instance=${instance}&bind_state=resolved`, { token: nova_ });
    expect(resolved.status).toBe(200);
    expect(resolved.body.arqs[0]).toMatchObject({ uuid: arq.uuid, state: 'Bound' });
    await cleanUp([arq.uuid]);
  });
}

describe('Cyborg v2 accelerator requests (embedded SQLite)', () => {
  acceleratorRequestSuite(() => ({}), async () => undefined);
});

const schema = `arqs_e2e_${process.pid}`;
describeWithService('PostgreSQL', postgresUnavailable())('Cyborg v2 accelerator requests (PostgreSQL)', () => {
  acceleratorRequestSuite(
    () => ({ LEDGER_STORE: 'postgres', LEDGER_POSTGRES_URL: postgresUrl(), LEDGER_POSTGRES_SCHEMA: schema }),
    async () => {
      const client = new Client({ connectionString: postgresUrl() });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  );
});
