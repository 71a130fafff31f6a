import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

/** Real Cyborg's answers, captured from a running instance (test/fixtures/cyborg-v2-samples). */
const sample = (name: string) => JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'cyborg-v2-samples', name), 'utf8'));
const keysOf = (value: object) => Object.keys(value).sort();

describe('Cyborg v2: version discovery and microversions', () => {
  let ledger: TestLedger;

  beforeAll(async () => {
    ledger = await startTestLedger();
  });
  afterAll(() => ledger.close());

  it('lists the versions at / with the fields real Cyborg sends, without a token', async () => {
    const root = await ledger.request('GET', '/');
    expect(root.status).toBe(200);
    expect(keysOf(root.body)).toEqual(keysOf(sample('root.json')));
    expect(keysOf(root.body.default_version)).toEqual(keysOf(sample('root.json').default_version));
    expect(root.body.versions[0]).toMatchObject({ id: 'v2', status: 'CURRENT', min_version: '2.0', max_version: '2.3' });
    expect(root.body.versions[0].links[0].href).toBe(`${ledger.url}/v2/`);
  });

  it.each(['/v2', '/v2/'])('describes v2 at %s with the version headers', async (path) => {
    const v2 = await ledger.request('GET', path, { headers: { 'OpenStack-API-Version': 'accelerator 2.2' } });
    expect(v2.status).toBe(200);
    expect(keysOf(v2.body)).toEqual(keysOf(sample('v2.json')));
    expect(v2.body).toMatchObject({ id: 'v2.0', min_version: '2.0', max_version: '2.3' });
    expect(v2.headers.get('openstack-api-version')).toBe('accelerator 2.2');
    expect(v2.headers.get('openstack-api-minimum-version')).toBe('2.0');
    expect(v2.headers.get('openstack-api-maximum-version')).toBe('2.3');
    expect(v2.headers.get('vary')).toBe('OpenStack-API-Version');
  });

  it('answers 2.0 when the header is missing, as Nova never sends it', async () => {
    const v2 = await ledger.request('GET', '/v2');
    expect(v2.headers.get('openstack-api-version')).toBe('accelerator 2.0');
  });

  it('refuses an unsupported microversion with 406 in Cyborg\'s error shape', async () => {
    const refused = await ledger.request('GET', '/v2', { headers: { 'OpenStack-API-Version': 'accelerator 2.9' } });
    expect(refused.status).toBe(406);
    // Cyborg's member, plus `message`, which openstacksdk shows users.
    expect(keysOf(refused.body)).toEqual([...keysOf(sample('device_profile_get_name_v20_406.json')), 'message']);
    expect(refused.body.error_message).toMatch(/maximum is 2\.3/);
    expect(refused.headers.get('x-error-code')).toBe('V2.VERSION_NOT_ACCEPTABLE');
    expect(refused.headers.get('openstack-api-maximum-version')).toBe('2.3');
  });

  it('keeps Cyborg\'s error shape under /v2 and problem details elsewhere', async () => {
    const v2 = await ledger.request('GET', '/v2/no-such-resource', { token: ledger.adminToken });
    expect(v2.status).toBe(404);
    expect(v2.body).toEqual({ error_message: expect.any(String), message: v2.body.error_message });
    const native = await ledger.request('GET', '/api/v1/no-such-resource', { token: ledger.adminToken });
    expect(native.body).toMatchObject({ status: 404, code: 'ROUTE.NOT_FOUND' });
    expect(native.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
