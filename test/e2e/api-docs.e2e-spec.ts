import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { servedRoutes, normalisePath } from '../support/fastify-routes';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';

const DOCUMENTS = ['/api/v1/openapi.json', '/v2/openapi.json'];
/** The human pages and their assets — the docs page, the operator's console: not part of an API, so in no document. */
const DOCS_PAGE = /^[A-Z]+ \/(docs|console)(\/|$)/;

describe('the API documents and the docs page', () => {
  let ledger: TestLedger;
  let documents: Record<string, any>;

  beforeAll(async () => {
    ledger = await startTestLedger();
    documents = Object.fromEntries(await Promise.all(DOCUMENTS.map(async (path) => [path, (await ledger.request('GET', path)).body])));
  });
  afterAll(() => ledger?.close());

  const documented = () =>
    Object.values(documents).flatMap((document) =>
      Object.entries(document.paths as Record<string, object>).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${normalisePath(path)}`),
      ),
    );

  it('describe every route the app serves, and only those', () => {
    const served = servedRoutes(ledger.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false }))
      .filter((route) => !route.startsWith('HEAD ') && !DOCS_PAGE.test(route));
    expect(served).toEqual(expect.arrayContaining(['GET /healthz', 'GET /v2/device_profiles/{}', 'PATCH /v2/deployables/{}/program', 'PUT /api/v1/hosts/{}/report']));
    expect(new Set(documented())).toEqual(new Set(served));
  });

  it('are OpenAPI 3 documents of the native API (with health and readiness) and of Cyborg v2', () => {
    const [native, v2] = DOCUMENTS.map((path) => documents[path]);
    expect(native.openapi).toMatch(/^3\.0/);
    expect(native.paths['/readyz'].get.responses['503']).toBeDefined();
    expect(native.paths['/healthz'].get.security).toEqual([]);
    expect(v2.openapi).toBe('3.1.0');
    expect(v2.info.description).toContain('OpenStack-API-Version');
    expect(v2.paths['/v2/device_profiles/{uuid_or_name}'].get['x-openstack-min-microversion']).toBe('2.0');
    expect(v2.paths['/v2/device_profiles/{uuid_or_name}'].get.description).toMatch(/by name from 2\.2/);
    expect(v2.components.parameters.OpenStackApiVersion.in).toBe('header');
  });

  it('serves the docs page with every asset it loads, from the ledger itself', async () => {
    const page = await fetch(`${ledger.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/<(?:script|link)[^>]*(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets).toEqual(expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/swagger-initializer.js']));
    for (const asset of assets) {
      expect(asset).toMatch(/^\/docs\//); // nothing from a CDN
      const response = await fetch(`${ledger.url}${asset}`);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    // The page and the native document lead to the GraphQL explorer, which the console serves.
    expect(html).toContain('<a href="/console/graphql.html">');
    expect((await fetch(`${ledger.url}/console/graphql.html`)).status).toBe(200);
    const native = (await (await fetch(`${ledger.url}/api/v1/openapi.json`)).json()) as { info: { description: string } };
    expect(native.info.description).toContain('](/console/graphql.html)');
    const initializer = await (await fetch(`${ledger.url}/docs/swagger-initializer.js`)).text();
    for (const path of DOCUMENTS) expect(initializer).toContain(`'${path}'`);
  });

  describe("describe Cyborg's v2 answers as they are served", () => {
    let validate: (schema: string, body: unknown) => void;
    const member = () => ledger.token({ user: 'alice', project: 'p1', roles: ['member'] });
    const v2 = (method: string, path: string, body?: unknown, token = ledger.adminToken): Promise<TestResponse> =>
      ledger.request(method, path, { token, body, headers: { 'openstack-api-version': 'accelerator 2.3' } });

    beforeAll(async () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema({ $id: 'v2', components: documents['/v2/openapi.json'].components });
      validate = (schema, body) => {
        const check = ajv.getSchema(`v2#/components/schemas/${schema}`)!;
        expect({ schema, valid: check(body), errors: check.errors ?? null }).toEqual({ schema, valid: true, errors: null });
      };
      const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
      expect((await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1) })).status).toBe(200);
    });

    it('holds answers to the schemas (a body missing its members fails)', () => {
      expect(() => validate('Device', { uuid: 'x' })).toThrow();
      expect(() => validate('AcceleratorRequest', { uuid: '0196b3c2-5a1e-7c3d-9f00-4c1ed6e7a999', state: 'Flying' })).toThrow();
    });

    it('device profiles, accelerator requests, devices, deployables, attributes and errors', async () => {
      const profile = await v2('POST', '/v2/device_profiles', [{ name: 'docs-fpga', groups: [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }] }]);
      expect(profile.status).toBe(201);
      validate('DeviceProfile', profile.body);
      (await v2('GET', '/v2/device_profiles')).body.device_profiles.forEach((item: unknown) => validate('DeviceProfile', item));
      validate('DeviceProfile', (await v2('GET', '/v2/device_profiles/docs-fpga')).body.device_profile);

      const arqs = await v2('POST', '/v2/accelerator_requests', { device_profile_name: 'docs-fpga' }, member());
      expect(arqs.status).toBe(201);
      arqs.body.arqs.forEach((arq: unknown) => validate('AcceleratorRequest', arq));
      validate('AcceleratorRequest', (await v2('GET', `/v2/accelerator_requests/${arqs.body.arqs[0].uuid}`, undefined, member())).body);

      const devices = (await v2('GET', '/v2/devices')).body.devices;
      expect(devices.length).toBeGreaterThan(0);
      devices.forEach((device: unknown) => validate('Device', device));
      const deployables = (await v2('GET', '/v2/deployables')).body.deployables;
      deployables.forEach((deployable: unknown) => validate('Deployable', deployable));
      const discovered = (await v2('GET', '/v2/attributes')).body.attributes;
      discovered.forEach((item: unknown) => validate('Attribute', item));
      const attribute = await v2('POST', '/v2/attributes', { deployable_id: discovered[0].deployable_id, key: 'owner', value: 'team-a' });
      expect(attribute.status).toBe(201);
      validate('Attribute', attribute.body);

      validate('Versions', (await v2('GET', '/')).body);
      validate('Version', (await v2('GET', '/v2')).body);
      validate('CyborgError', (await v2('GET', '/v2/accelerator_requests/0196b3c2-5a1e-7c3d-9f00-4c1ed6e7a999')).body);
    });
  });
});
