import type { Principal } from '@ledger/auth';
import { ARQ_1, ARQ_2, type HeldSlot } from '../../projections/device-history/testing/tenancy-history';
import { recordAuditHistory } from '../support/audit-history';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';

const member = (project: string): Principal => ({ user: `${project}-user`, project, roles: ['member'] });
const pick = (fields: readonly string[]) => (item: Record<string, unknown>) => Object.fromEntries(fields.map((field) => [field, item[field]]));

/** The auditor's questions through /graphql (docs/graphql.md#as-of-and-device-history): the same answers as REST's. */
describe("GraphQL: the auditor's questions (asOf, deviceTenancy, deviceTimeline)", () => {
  let ledger: TestLedger;
  let slot: HeldSlot;
  let beforeReport: number;
  let beforeQuota: number;
  let head: number;

  const fresh = () => ({ 'x-ledger-min-position': String(head) });
  const get = (path: string, token = ledger.adminToken) => ledger.request('GET', path, { token, headers: fresh() });
  const gql = (query: string, token = ledger.adminToken) => ledger.request('POST', '/graphql', { token, body: { query }, headers: fresh() });
  const dataOf = (response: TestResponse) => {
    expect({ status: response.status, errors: response.body.errors }).toEqual({ status: 200, errors: undefined });
    return response.body.data;
  };
  const codesOf = (response: TestResponse) => response.body.errors?.map((error: { extensions: { code: string } }) => error.extensions.code);
  const nodesOf = (connection: { edges: { node: Record<string, unknown> }[] }) => connection.edges.map((edge) => edge.node);

  beforeAll(async () => {
    ledger = await startTestLedger();
    ({ slot, beforeReport, beforeQuota, head } = await recordAuditHistory(ledger));
  });
  afterAll(() => ledger?.close());

  describe('asOf on the root queries', () => {
    const lists = [
      { field: 'hosts', path: '/api/v1/hosts', fields: ['hostname', 'deviceCount', 'status'] },
      { field: 'devices', path: '/api/v1/devices', fields: ['uuid', 'hostname', 'type', 'status'] },
      { field: 'deployables', path: '/api/v1/deployables', fields: ['uuid', 'deviceUuid', 'resourceClass'] },
      { field: 'workflows', path: '/api/v1/workflows', fields: ['name', 'id', 'status'] },
    ];

    it.each(lists)('$field(asOf:) equals $path?asOf= at the same position, and says which', async ({ field, path, fields }) => {
      for (const point of [beforeReport, beforeQuota, head]) {
        const restAnswer = await get(`${path}?asOf=${point}`);
        const answer = dataOf(await gql(`{ ${field}(asOf: "${point}") { asOfPosition edges { node { ${fields.join(' ')} } } } }`))[field];
        expect({ point, position: answer.asOfPosition, nodes: nodesOf(answer) }).toEqual({
          point,
          position: Number(restAnswer.headers.get('x-ledger-as-of-position')),
          nodes: restAnswer.body.items.map(pick(fields)),
        });
      }
      expect(dataOf(await gql(`{ ${field} { asOfPosition } }`))[field].asOfPosition).toBeNull();
    });

    it("acceleratorRequests(asOf:) equals /v2/accelerator_requests?asOf=, filtered to the caller's project", async () => {
      for (const point of [beforeQuota, head]) {
        const restAnswer = await get(`/v2/accelerator_requests?asOf=${point}`, ledger.token(member('p1')));
        const answer = dataOf(await gql(`{ acceleratorRequests(asOf: "${point}") { asOfPosition edges { node { uuid } } } }`, ledger.token(member('p1'))));
        expect(answer.acceleratorRequests).toEqual({ asOfPosition: point, edges: restAnswer.body.arqs.map((arq: { uuid: string }) => ({ node: { uuid: arq.uuid } })) });
      }
      expect(dataOf(await gql(`{ acceleratorRequests(asOf: "${head}") { edges { node { uuid } } } }`, ledger.token(member('p1')))).acceleratorRequests.edges).toEqual([{ node: { uuid: ARQ_1 } }]);
    });

    it('quota(asOf:) equals /api/v1/quotas/{project}?asOf=', async () => {
      for (const point of [beforeQuota, head]) {
        const restAnswer = await get(`/api/v1/quotas/p1?asOf=${point}`);
        const answer = dataOf(await gql(`{ quota(project: "p1", asOf: "${point}") { project limits usage asOfPosition } }`)).quota;
        expect(answer).toEqual({ ...restAnswer.body, asOfPosition: point });
      }
    });

    it("reads the fields under an as-of node at the same position: a host's devices, their deployables and requests", async () => {
      const query = (point: number) =>
        `{ hosts(asOf: "${point}", first: 1) { edges { node { devices(type: "FPGA", first: 1) { asOfPosition edges { node { uuid deployables(first: 2) { asOfPosition edges { node { attachHandles { uuid } } } } acceleratorRequests(first: 5) { asOfPosition edges { node { uuid } } } } } } } } } }`;
      const [device] = nodesOf(nodesOf(dataOf(await gql(query(beforeQuota))).hosts)[0].devices as any) as any[];
      expect([device.deployables.asOfPosition, device.acceleratorRequests]).toEqual([beforeQuota, { asOfPosition: beforeQuota, edges: [] }]);
      const [later] = nodesOf(nodesOf(dataOf(await gql(query(head))).hosts)[0].devices as any) as any[];
      const requests = nodesOf(dataOf(await gql(`{ acceleratorRequests(asOf: "${head}") { edges { node { uuid deviceUuid } } } }`)).acceleratorRequests);
      const onDevice = requests.filter((arq) => arq.deviceUuid === later.uuid).map((arq) => ({ node: { uuid: arq.uuid } }));
      expect(onDevice.length).toBeGreaterThan(0);
      expect(later.acceleratorRequests).toEqual({ asOfPosition: head, edges: onDevice });
    });

    it('answers one node as of a point as its REST route does, with the fields under it at the same point', async () => {
      const restDevice = (await get(`/api/v1/devices?asOf=${beforeQuota}&type=FPGA`)).body.items[0];
      const singles = [
        { query: `host(hostname: "compute-7", asOf: "${beforeReport}") { hostname }`, field: 'host', path: `/api/v1/hosts/compute-7?asOf=${beforeReport}` },
        { query: `host(hostname: "compute-7", asOf: "${head}") { hostname deviceCount }`, field: 'host', path: `/api/v1/hosts/compute-7?asOf=${head}` },
        { query: `device(uuid: "${restDevice.uuid}", asOf: "${beforeQuota}") { uuid status }`, field: 'device', path: `/api/v1/devices/${restDevice.uuid}?asOf=${beforeQuota}` },
        { query: `deployable(uuid: "${slot.deployable}", asOf: "${beforeQuota}") { uuid resourceClass }`, field: 'deployable', path: `/api/v1/deployables/${slot.deployable}?asOf=${beforeQuota}` },
        { query: `acceleratorRequest(uuid: "${ARQ_1}", asOf: "${beforeQuota}") { uuid }`, field: 'acceleratorRequest', path: `/v2/accelerator_requests/${ARQ_1}?asOf=${beforeQuota}` },
        { query: `acceleratorRequest(uuid: "${ARQ_1}", asOf: "${head}") { uuid }`, field: 'acceleratorRequest', path: `/v2/accelerator_requests/${ARQ_1}?asOf=${head}` },
      ];
      for (const { query, field, path } of singles) {
        const restAnswer = await get(path);
        const node = dataOf(await gql(`{ ${query} }`))[field];
        expect({ path, node }).toEqual({ path, node: restAnswer.status === 404 ? null : pick(Object.keys(node ?? { uuid: 0 }))(restAnswer.body) });
      }
      const nested = dataOf(await gql(`{ device(uuid: "${restDevice.uuid}", asOf: "${beforeQuota}") { deployables(first: 2) { asOfPosition } } }`)).device;
      expect(nested.deployables.asOfPosition).toBe(beforeQuota);
    });

    it('refuses a field with no as-of read model under an as-of node: GRAPHQL.AS_OF_NOT_NESTABLE', async () => {
      const response = await gql(`{ hosts(asOf: "${head}") { edges { node { hostname placement { hostname } } } } }`);
      expect(codesOf(response)).toEqual(['GRAPHQL.AS_OF_NOT_NESTABLE']);
      expect(dataOf(await gql('{ hosts { edges { node { placement { hostname } } } } }')).hosts.edges.length).toBeGreaterThan(0);
    });

    it('refuses a malformed point and one beyond the head with the REST codes', async () => {
      const bad = await gql('{ hosts(asOf: "last-tuesday") { asOfPosition } }');
      expect([bad.status, bad.headers.get('x-error-code'), codesOf(bad)]).toEqual([400, 'AUDIT.BAD_LOG_POINT', ['AUDIT.BAD_LOG_POINT']]);
      const ahead = await gql(`{ quota(project: "p1", asOf: "${head + 1000}") { project } }`);
      expect([ahead.status, codesOf(ahead), ahead.body.errors[0].extensions.head]).toEqual([400, ['AUDIT.AS_OF_BEYOND_HEAD'], expect.any(Number)]);
    });
  });

  describe('deviceTenancy and deviceTimeline', () => {
    const tenancyQuery = (device: string, range = '') => `{ deviceTenancy(device: "${device}"${range}) { deviceUuid tenancies { arqUuid projectId bitstreamId from { position time } to { position time } } } }`;
    const timelineQuery = (device: string, page = '') => `{ deviceTimeline(device: "${device}"${page}) { deviceUuid next entries { position type recordedAt actor projectId summary } } }`;
    const tenancyFields = ['arqUuid', 'projectId', 'bitstreamId', 'from', 'to'];

    it("equals the REST tenancy for the operator and for each project's member, who sees only its own", async () => {
      for (const token of [ledger.adminToken, ledger.token(member('p1')), ledger.token(member('p3'))]) {
        const restAnswer = (await get(`/api/v1/devices/${slot.device}/tenancy`, token)).body;
        const answer = dataOf(await gql(tenancyQuery(slot.device), token)).deviceTenancy;
        expect(answer).toEqual({ deviceUuid: restAnswer.deviceUuid, tenancies: restAnswer.tenancies.map(pick(tenancyFields)) });
      }
      const p1 = dataOf(await gql(tenancyQuery(slot.device), ledger.token(member('p1')))).deviceTenancy;
      expect(p1.tenancies.map((t: { arqUuid: string }) => t.arqUuid)).toEqual([ARQ_1]);
      expect(dataOf(await gql(tenancyQuery(slot.device))).deviceTenancy.tenancies.map((t: { arqUuid: string }) => t.arqUuid)).toEqual([ARQ_1, ARQ_2]);
    });

    it('answers a range as REST does, and a bad point with AUDIT.BAD_LOG_POINT', async () => {
      const released = (await get(`/api/v1/devices/${slot.device}/tenancy`)).body.tenancies[0].to.position;
      const after = dataOf(await gql(tenancyQuery(slot.device, `, from: "${released + 1}"`))).deviceTenancy.tenancies;
      expect(after.map((t: { arqUuid: string }) => t.arqUuid)).toEqual([ARQ_2]);
      expect(codesOf(await gql(tenancyQuery(slot.device, ', from: "yesterday"')))).toEqual(['AUDIT.BAD_LOG_POINT']);
    });

    it("equals the REST timeline page by page; a member sees its own project's entries only", async () => {
      for (const token of [ledger.adminToken, ledger.token(member('p2'))]) {
        const restAnswer = (await get(`/api/v1/devices/${slot.device}/timeline?limit=2`, token)).body;
        expect(dataOf(await gql(timelineQuery(slot.device, ', limit: 2'), token)).deviceTimeline).toEqual(restAnswer);
        const restNext = (await get(`/api/v1/devices/${slot.device}/timeline?limit=2&after=${restAnswer.next}`, token)).body;
        expect(dataOf(await gql(timelineQuery(slot.device, `, limit: 2, after: ${restAnswer.next}`), token)).deviceTimeline).toEqual(restNext);
      }
      const p2 = dataOf(await gql(timelineQuery(slot.device, ', limit: 1000'), ledger.token(member('p2')))).deviceTimeline.entries;
      expect(p2.length).toBeGreaterThan(0);
      expect(p2.filter((entry: { projectId: string }) => entry.projectId !== 'p2')).toEqual([]);
    });
  });
});
