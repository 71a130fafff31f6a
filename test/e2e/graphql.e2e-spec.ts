import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { eventually, testEvent } from '@ledger/processing/testing';
import { defineStepWorkflow } from '@ledger/workflows';
import type { LedgerWorkflows } from '../../apps/ledger/src/infrastructure/ledger-workflows';
import { hostname, hostReportBody } from '../support/fleet';
import { imageBody, pemOf } from '../support/bitstreams';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';

const A = 'tenant-a';
const B = 'tenant-b';
const HOSTS = [1, 2, 3].map(hostname);
const PROFILE = 'gql-fpga';

/**
 * Workflows for the listing to show: binds with nothing to program run none,
 * so the test's ledger runs a one-step workflow started by an event.
 */
const noteWorkflows: LedgerWorkflows = {
  workflows: [
    defineStepWorkflow<{ noteId: string }>({
      name: 'note',
      routes: [{ types: ['test.NotePlaced'], starts: true, workflowId: (event) => (event.data as { noteId: string }).noteId }],
      start: (input) => input.data as { noteId: string },
      steps: [{ name: 'record', do: ({ data }) => ({ kind: 'command', command: { type: 'test.Record', data } }), timeoutMs: 30_000, retry: { maxAttempts: 1 } }],
    }),
  ],
  commands: () => ({ 'test.Record': async () => ({ recorded: true }) }),
};

/** GraphQL at /graphql over real HTTP (docs/graphql.md): every type, pages, roles, project filters, limits, errors. */
describe('GraphQL at /graphql', () => {
  let ledger: TestLedger;
  let lastPosition = 0;
  const arqsOf: Record<string, string> = {};
  let fpgaDevices: Record<string, { device: string; rp: string; deployable: string }> = {};

  const tokenOf = (project: string, role: 'reader' | 'member' | 'manager') => ledger.token({ user: `${role}-${project}`, project, roles: [role] });
  const novaOf = (project: string) => ledger.token({ user: `nova-${project}`, project, roles: ['member', 'service'] });
  const gql = (query: string, token?: string, options: { variables?: Record<string, unknown>; headers?: Record<string, string> } = {}) =>
    ledger.request('POST', '/graphql', { token, body: { query, variables: options.variables }, headers: options.headers });
  const asAdmin = (query: string, variables?: Record<string, unknown>) => gql(query, ledger.adminToken, { variables });
  /** An answer with data and no errors. */
  const dataOf = (response: TestResponse) => {
    expect({ status: response.status, errors: response.body.errors }).toEqual({ status: 200, errors: undefined });
    return response.body.data;
  };
  const refusal = (response: TestResponse) => ({ status: response.status, header: response.headers.get('x-error-code'), codes: response.body.errors?.map((e: any) => e.extensions.code) });
  const nodesOf = (connection: { edges: { node: any }[] }) => connection.edges.map((edge) => edge.node);
  const rest = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await ledger.request(method, path, { token, body });
    expect({ call: `${method} ${path}`, status: response.status < 300 ? 'ok' : response.body }).toEqual({ call: `${method} ${path}`, status: 'ok' });
    if (typeof response.body?.position === 'number') lastPosition = Math.max(lastPosition, response.body.position);
    return response.body;
  };

  beforeAll(async () => {
    ledger = await startTestLedger({}, noteWorkflows);
    const store = ledger.app.get<EventStore>(EVENT_STORE);
    for (const noteId of ['n1', 'n2']) await store.append(`testnote-${noteId}`, [testEvent('test.NotePlaced', { noteId })], { expected: 'no_stream' });
    for (const [index, host] of HOSTS.entries()) await rest('PUT', `/api/v1/hosts/${host}/report`, ledger.adminToken, hostReportBody(index + 1));
    const deployables = await ledger.request('GET', '/api/v1/deployables?resourceClass=FPGA', {
      token: ledger.adminToken,
      headers: { 'x-ledger-min-position': String(lastPosition) },
    });
    fpgaDevices = Object.fromEntries(deployables.body.items.map((d: any) => [d.hostname, { device: d.deviceUuid, rp: d.rpUuid, deployable: d.uuid }]));
    await rest('POST', '/v2/device_profiles', ledger.adminToken, [{ name: PROFILE, groups: [{ 'resources:FPGA': '1' }] }]);
    for (const [project, host] of [[A, HOSTS[0]], [B, HOSTS[1]]]) {
      await rest('PUT', `/api/v1/quotas/${project}`, ledger.adminToken, { limits: { FPGA: 5 } });
      const created = await rest('POST', '/v2/accelerator_requests', novaOf(project), { device_profile_name: PROFILE });
      const uuid: string = created.arqs[0].uuid;
      arqsOf[project] = uuid;
      const bind = { [uuid]: [
        { op: 'add', path: '/hostname', value: host },
        { op: 'add', path: '/device_rp_uuid', value: fpgaDevices[host].rp },
        { op: 'add', path: '/instance_uuid', value: randomUUID() },
      ] };
      await rest('PATCH', '/v2/accelerator_requests', novaOf(project), bind);
    }
    const signer = generateKeyPairSync('ed25519');
    await rest('POST', '/api/v1/signing-keys', ledger.adminToken, { publicKeyPem: pemOf(signer.publicKey) });
    await rest('POST', '/api/v1/bitstreams', ledger.adminToken, imageBody(Buffer.from('graphql image'), signer.privateKey));
    // A job goes only to a host whose agent has run: one heartbeat says so.
    const agent = ledger.token({ user: `agent:${HOSTS[2]}`, project: null, roles: ['agent'], host: HOSTS[2] });
    await rest('POST', `/api/v1/hosts/${HOSTS[2]}/heartbeat`, agent, { agentVersion: '0', intervalSeconds: 3600, devices: [] });
    await rest('POST', `/api/v1/hosts/${HOSTS[2]}/jobs`, ledger.adminToken, { kind: 'discover', params: {} });
    // Both binds finished: each request holds its device's attach handle.
    const bound = async () => nodesOf(dataOf(await asAdmin('{ acceleratorRequests { edges { node { state } } } }')).acceleratorRequests).every((arq) => arq.state === 'Bound');
    await eventually(bound, 20_000);
    const notesDone = async () => nodesOf(dataOf(await asAdmin('{ workflows(status: "completed") { edges { node { id } } } }')).workflows).length === 2;
    await eventually(notesDone, 20_000);
  });
  afterAll(() => ledger?.close());

  describe('authentication', () => {
    it('answers a request without a token 401 AUTH.TOKEN_MISSING, even one that reads nothing', async () => {
      expect(refusal(await gql('{ __typename }'))).toEqual({ status: 401, header: 'AUTH.TOKEN_MISSING', codes: ['AUTH.TOKEN_MISSING'] });
    });

    it('answers a forged token 401 AUTH.TOKEN_INVALID, and takes Authorization: Bearer as REST does', async () => {
      expect(refusal(await gql('{ __typename }', 'not-a-token'))).toMatchObject({ status: 401, header: 'AUTH.TOKEN_INVALID' });
      const bearer = await ledger.request('POST', '/graphql', { body: { query: '{ __typename }' }, headers: { authorization: `Bearer ${ledger.adminToken}` } });
      expect(dataOf(bearer)).toEqual({ __typename: 'Query' });
    });

    it('serves GET /graphql?query= too', async () => {
      const response = await ledger.request('GET', `/graphql?query=${encodeURIComponent('{ hosts(first: 1) { edges { node { hostname } } } }')}`, { token: ledger.adminToken });
      expect(nodesOf(dataOf(response).hosts)).toEqual([{ hostname: HOSTS[0] }]);
    });
  });

  describe('every type, with filters and cursor pages', () => {
    it('pages hosts by name: first and after, endCursor and hasNextPage', async () => {
      const query = 'query($after: String) { hosts(first: 2, after: $after) { edges { cursor node { hostname deviceCount status } } pageInfo { endCursor hasNextPage } } }';
      const first = dataOf(await asAdmin(query)).hosts;
      expect(nodesOf(first).map((host) => host.hostname)).toEqual(HOSTS.slice(0, 2));
      expect(first.pageInfo.hasNextPage).toBe(true);
      expect(first.edges[1].cursor).toBe(first.pageInfo.endCursor);
      const second = dataOf(await asAdmin(query, { after: first.pageInfo.endCursor })).hosts;
      expect(nodesOf(second).map((host) => host.hostname)).toEqual(HOSTS.slice(2));
      expect(second.pageInfo).toEqual({ endCursor: null, hasNextPage: false });
    });

    it('filters devices and deployables, and nests host → devices → deployables → attach handles', async () => {
      const gpus = dataOf(await asAdmin(`{ devices(hostname: "${HOSTS[0]}", type: "GPU", vendor: "0x10DE") { edges { node { type vendorId hostname } } } }`)).devices;
      expect(nodesOf(gpus).length).toBeGreaterThanOrEqual(2);
      expect(new Set(nodesOf(gpus).map((d) => `${d.type} ${d.vendorId} ${d.hostname}`))).toEqual(new Set([`GPU 10de ${HOSTS[0]}`]));
      const fpgas = dataOf(await asAdmin('{ deployables(resourceClass: "FPGA", first: 2) { edges { node { resourceClass } } pageInfo { hasNextPage } } }')).deployables;
      expect([nodesOf(fpgas).length, fpgas.pageInfo.hasNextPage]).toEqual([2, true]);
      const nested = dataOf(await asAdmin(`{ host(hostname: "${HOSTS[0]}") { devices(type: "FPGA", first: 5) { edges { node { uuid deployables(first: 5) { edges { node { uuid attachHandles { kind inUse claimedBy } } } } } } } } }`));
      const [fpga] = nodesOf(nested.host.devices);
      expect(fpga.uuid).toBe(fpgaDevices[HOSTS[0]].device);
      const handles = nodesOf(fpga.deployables)[0].attachHandles;
      expect(handles.filter((handle: any) => handle.inUse)).toEqual([{ kind: 'VF', inUse: true, claimedBy: arqsOf[A] }]);
    });

    it('serves device profiles, accelerator requests (by instance), quota and the Placement view', async () => {
      expect(nodesOf(dataOf(await asAdmin(`{ deviceProfiles(names: ["${PROFILE}"]) { edges { node { name groups } } } }`)).deviceProfiles)).toEqual([{ name: PROFILE, groups: [{ 'resources:FPGA': '1' }] }]);
      expect(dataOf(await asAdmin(`{ deviceProfile(uuidOrName: "${PROFILE}") { name } }`)).deviceProfile).toEqual({ name: PROFILE });
      const arqs = dataOf(await asAdmin('{ acceleratorRequests(first: 1) { edges { node { uuid projectId state } } pageInfo { endCursor hasNextPage } } }')).acceleratorRequests;
      expect([nodesOf(arqs).length, arqs.pageInfo.hasNextPage]).toEqual([1, true]);
      const next = dataOf(await asAdmin('query($after: String) { acceleratorRequests(first: 1, after: $after) { edges { node { uuid } } } }', { after: arqs.pageInfo.endCursor }));
      expect([...nodesOf(arqs), ...nodesOf(next.acceleratorRequests)].map((arq) => arq.uuid).sort()).toEqual([arqsOf[A], arqsOf[B]].sort());
      const instance = await ledger.request('GET', `/v2/accelerator_requests/${arqsOf[B]}`, { token: ledger.adminToken });
      const byInstance = dataOf(await asAdmin(`{ acceleratorRequests(instanceUuid: "${instance.body.instance_uuid}") { edges { node { uuid } } } }`));
      expect(nodesOf(byInstance.acceleratorRequests)).toEqual([{ uuid: arqsOf[B] }]);
      expect(dataOf(await asAdmin(`{ quota(project: "${A}") { project limits usage } }`)).quota).toEqual({ project: A, limits: { FPGA: 5 }, usage: { FPGA: 1 } });
      const placement = dataOf(await asAdmin(`{ hostPlacement(hostname: "${HOSTS[0]}") { hostname providers { deployableUuid resourceClass total } } host(hostname: "${HOSTS[0]}") { placement { hostname } } }`));
      expect(placement.hostPlacement.providers).toEqual(expect.arrayContaining([expect.objectContaining({ deployableUuid: fpgaDevices[HOSTS[0]].deployable, resourceClass: 'FPGA' })]));
      expect(placement.host.placement).toEqual({ hostname: HOSTS[0] });
    });

    it('serves workflows with their steps, jobs by host, and bitstreams', async () => {
      const workflows = dataOf(await asAdmin('{ workflows(status: "completed", first: 1) { edges { node { name status steps { step status } } } pageInfo { hasNextPage } } }')).workflows;
      expect(nodesOf(workflows)).toEqual([expect.objectContaining({ status: 'completed', steps: expect.arrayContaining([expect.objectContaining({ status: 'done' })]) })]);
      expect(workflows.pageInfo.hasNextPage).toBe(true);
      const jobs = dataOf(await asAdmin(`{ jobs(hostname: "${HOSTS[2]}", kind: "discover") { edges { node { hostname kind state } } } }`)).jobs;
      expect(nodesOf(jobs)).toEqual([{ hostname: HOSTS[2], kind: 'discover', state: 'requested' }]);
      const images = dataOf(await asAdmin('{ bitstreams(live: true) { edges { node { bitstreamId state origin { kind } } } } }')).bitstreams;
      expect(nodesOf(images)).toEqual([expect.objectContaining({ state: 'registered', origin: { kind: 'stored' } })]);
      expect(dataOf(await asAdmin(`{ bitstream(bitstreamId: "${nodesOf(images)[0].bitstreamId}") { state } }`)).bitstream).toEqual({ state: 'registered' });
    });

    it('refuses an argument REST would refuse, with the same code', async () => {
      expect(refusal(await asAdmin('{ hosts(first: 0) { edges { node { hostname } } } }'))).toEqual({ status: 400, header: 'REQUEST.INVALID', codes: ['REQUEST.INVALID'] });
      expect(refusal(await asAdmin('{ hosts(after: "not-a-cursor") { edges { node { hostname } } } }'))).toMatchObject({ status: 400, codes: ['INVENTORY.QUERY_INVALID'] });
      expect(refusal(await asAdmin('{ acceleratorRequests(after: "bm90") { edges { node { uuid } } } }'))).toMatchObject({ status: 400, codes: ['GRAPHQL.ARGUMENT_INVALID'] });
    });
  });

  describe('a tenant sees only its own project, through any query or nesting', () => {
    const everyArq = '{ acceleratorRequests { edges { node { uuid projectId } } } }';

    it('lists and shows only its own requests', async () => {
      for (const role of ['reader', 'member', 'manager'] as const) {
        expect(nodesOf(dataOf(await gql(everyArq, tokenOf(A, role))).acceleratorRequests)).toEqual([{ uuid: arqsOf[A], projectId: A }]);
        expect(dataOf(await gql(`{ acceleratorRequest(uuid: "${arqsOf[B]}") { uuid } }`, tokenOf(A, role)))).toEqual({ acceleratorRequest: null });
      }
    });

    it('reaches no other project through device → requests or attach handles', async () => {
      const query = '{ devices(type: "FPGA", first: 10) { edges { node { hostname acceleratorRequests(first: 10) { edges { node { uuid projectId } } } deployables(first: 5) { edges { node { attachHandles { inUse claimedBy } } } } } } } }';
      const devices = nodesOf(dataOf(await gql(query, tokenOf(A, 'manager'))).devices);
      const seenArqs = devices.flatMap((device) => nodesOf(device.acceleratorRequests));
      expect(seenArqs).toEqual([{ uuid: arqsOf[A], projectId: A }]);
      const handles = devices.flatMap((device) => nodesOf(device.deployables).flatMap((deployable) => deployable.attachHandles));
      expect(handles.filter((handle) => handle.inUse)).toHaveLength(2);
      expect(handles.map((handle) => handle.claimedBy)).toEqual(handles.map(() => null));
      const asAdminToo = nodesOf(dataOf(await gql(query, ledger.adminToken)).devices).flatMap((device) => nodesOf(device.acceleratorRequests));
      expect(asAdminToo.map((arq) => arq.uuid).sort()).toEqual([arqsOf[A], arqsOf[B]].sort());
    });

    it("refuses another project's quota, and workflows and jobs to tenants, as REST does", async () => {
      expect(dataOf(await gql('{ quota { project usage } }', tokenOf(A, 'member'))).quota).toEqual({ project: A, usage: { FPGA: 1 } });
      expect(refusal(await gql(`{ quota(project: "${B}") { usage } }`, tokenOf(A, 'manager')))).toEqual({ status: 403, header: 'QUOTA.PROJECT_FORBIDDEN', codes: ['QUOTA.PROJECT_FORBIDDEN'] });
      for (const query of ['{ workflows { edges { node { id } } } }', '{ jobs { edges { node { jobId } } } }', '{ hosts { edges { node { hostname } } } }']) {
        const role = query.includes('workflows') ? 'manager' : 'member';
        expect(refusal(await gql(query, tokenOf(A, role)))).toEqual({ status: 403, header: 'AUTH.ROLE_REQUIRED', codes: ['AUTH.ROLE_REQUIRED'] });
      }
    });

    it('leaves out only the field a role may not read, and answers the rest', async () => {
      const response = await gql('{ deviceProfiles { edges { node { name } } } device(uuid: "00000000-0000-4000-8000-000000000000") { uuid } }', tokenOf(A, 'reader'));
      expect(response.status).toBe(200);
      expect(response.body.data.deviceProfiles.edges).toHaveLength(1);
      expect(response.body.errors.map((e: any) => [e.path, e.extensions.code])).toEqual([[['device'], 'AUTH.ROLE_REQUIRED']]);
    });
  });

  describe('limits', () => {
    it('refuses a query nested too deep with GRAPHQL.TOO_DEEP, before running it', async () => {
      const deep = `{ __schema { types { fields { type ${'{ ofType '.repeat(14)}{ name }${' }'.repeat(14)} } } } }`;
      const response = await asAdmin(deep);
      expect(refusal(response)).toEqual({ status: 400, header: 'GRAPHQL.TOO_DEEP', codes: ['GRAPHQL.TOO_DEEP'] });
      expect(response.body.errors[0].message).toMatch(/depth/);
    });

    it('refuses a query that would cost too much with GRAPHQL.TOO_COSTLY, counting page sizes from variables too', async () => {
      const query = 'query($n: Int) { hosts(first: $n) { edges { node { devices(first: $n) { edges { node { uuid model } } } } } } }';
      const response = await asAdmin(query, { n: 1000 });
      expect(refusal(response)).toEqual({ status: 400, header: 'GRAPHQL.TOO_COSTLY', codes: ['GRAPHQL.TOO_COSTLY'] });
      expect(response.body.errors[0].extensions).toMatchObject({ maximumCost: 25_000, cost: expect.any(Number) });
      expect(dataOf(await asAdmin(query, { n: 10 })).hosts.edges).toHaveLength(3);
    });

    it('answers requests GraphQL cannot take 4xx with a documented code, never 5xx', async () => {
      const send = (method: string, path: string, options: { rawBody?: string; headers?: Record<string, string> } = {}) =>
        ledger.request(method, path, { token: ledger.adminToken, ...options });
      expect(refusal(await send('GET', '/graphql'))).toMatchObject({ status: 400, header: 'GRAPHQL.INVALID_QUERY' });
      expect(refusal(await send('GET', '/graphql?query=%7B__typename%7D&variables=%7Bnot-json'))).toMatchObject({ status: 400, header: 'GRAPHQL.INVALID_QUERY' });
      expect(refusal(await send('POST', '/graphql', { rawBody: '[{"query":"{ __typename }"}]', headers: { 'content-type': 'application/json' } }))).toMatchObject({ status: 400, header: 'GRAPHQL.INVALID_QUERY' });
      expect(refusal(await send('POST', '/graphql', { rawBody: '{"query":', headers: { 'content-type': 'application/json' } }))).toMatchObject({ status: 400, header: 'REQUEST.MALFORMED_JSON' });
      expect(refusal(await send('POST', '/graphql', { rawBody: '{ __typename }', headers: { 'content-type': 'text/plain' } }))).toMatchObject({ status: 415, header: 'REQUEST.UNSUPPORTED_MEDIA_TYPE' });
      expect(dataOf(await send('POST', '/graphql', { rawBody: '{ __typename }', headers: { 'content-type': 'application/graphql' } }))).toEqual({ __typename: 'Query' });
    });

    it('answers a query that is not GraphQL, or not of this schema, 400 GRAPHQL.INVALID_QUERY', async () => {
      expect(refusal(await asAdmin('{ hosts { edges { node { nope } } } }'))).toEqual({ status: 400, header: 'GRAPHQL.INVALID_QUERY', codes: ['GRAPHQL.INVALID_QUERY'] });
      expect(refusal(await asAdmin('{ hosts('))).toMatchObject({ status: 400, header: 'GRAPHQL.INVALID_QUERY' });
      // Text that is JSON, not GraphQL: Mercurius would take it as a parsed document (found by the fuzzer as a 500 on "0").
      for (const json of ['0', 'null', '{}', '[]', '"{ __typename }"', '{"kind":"Document","definitions":[]}']) {
        expect(refusal(await asAdmin(json))).toMatchObject({ status: 400, header: 'GRAPHQL.INVALID_QUERY' });
      }
    });
  });

  it('reads the same devices whether their fields are selected directly or through fragments', async () => {
    const direct = '{ hosts(first: 2) { edges { node { devices { edges { node { uuid model pciAddress boardInfo } } } } } } }';
    const fragments = '{ hosts(first: 2) { edges { node { devices { ...Page } } } } } fragment Page on DeviceConnection { edges { node { uuid ... on Device { model pciAddress boardInfo } } } }';
    expect(dataOf(await asAdmin(fragments))).toEqual(dataOf(await asAdmin(direct)));
  });

  it('answers a document the same on every use: parsed, then cached, then compiled (graphql-jit from the second use)', async () => {
    const documents: [string, string, Record<string, unknown>?][] = [
      ['{ deviceProfiles { edges { node { name } } } device(uuid: "00000000-0000-4000-8000-000000000000") { uuid } }', tokenOf(A, 'reader')],
      [`{ quota(project: "${B}") { usage } }`, tokenOf(A, 'manager')],
      ['query($n: Int) { hosts(first: $n) { edges { node { hostname devices(first: $n) { edges { node { uuid acceleratorRequests { edges { node { uuid } } } } } } } } } }', tokenOf(A, 'manager'), { n: 2 }],
    ];
    for (const [query, token, variables] of documents) {
      const answers = [];
      for (let use = 0; use < 3; use++) answers.push(await gql(query, token, { variables }));
      const shapes = answers.map((answer) => ({ status: answer.status, body: answer.body }));
      expect(shapes.slice(1)).toEqual([shapes[0], shapes[0]]);
    }
  });

  it('reads its own writes with X-Ledger-Min-Position, as REST does', async () => {
    const report = await rest('PUT', '/api/v1/hosts/compute-late/report', ledger.adminToken, hostReportBody(9));
    const response = await gql('{ host(hostname: "compute-late") { hostname deviceCount } }', ledger.adminToken, { headers: { 'x-ledger-min-position': String(report.position) } });
    expect(dataOf(response).host).toEqual({ hostname: 'compute-late', deviceCount: expect.any(Number) });
    expect(refusal(await gql('{ __typename }', ledger.adminToken, { headers: { 'x-ledger-min-position': 'soon' } }))).toMatchObject({ status: 400, header: 'REQUEST.INVALID' });
  });
});
