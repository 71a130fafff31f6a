import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { servedRoutes } from '../support/fastify-routes';
import { nodeClientRequest } from '../support/raw-http';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

const SOME_UUID = '3f0d6c1e-5b7a-4c2d-9e8f-0a1b2c3d4e5f';

/** The fuzzer's body: 1,400 levels of arrays, 2.8 KB, which overflowed class-transformer's stack (a 500). */
const HOSTILE = `${'['.repeat(1400)}${']'.repeat(1400)}`;
/** The same depth through objects, as a field of an otherwise plausible body. */
const HOSTILE_OBJECT = `{"devices":${'{"a":'.repeat(1400)}1${'}'.repeat(1400)}}`;

/** The routes issue 11 found answering 500 to a deep body. */
const FUZZED_ROUTES = [
  'PUT /api/v1/quotas/tenant-a',
  'PUT /api/v1/hosts/compute-1/report',
  'POST /api/v1/hosts/compute-1/heartbeat',
  'POST /api/v1/hosts/compute-1/jobs',
  `POST /api/v1/jobs/${SOME_UUID}/result`,
  `POST /api/v1/devices/${SOME_UUID}/disable`,
  'POST /v2/attributes',
];

/** The methods whose bodies Fastify parses; a GET's body is never read. */
const METHODS_WITH_BODIES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('hostile JSON: a deeply nested body is refused before anything parses it', () => {
  let ledger: TestLedger;
  let store: EventStore;

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_LOG_LEVEL: 'error' });
    store = ledger.app.get<EventStore>(EVENT_STORE);
  });
  afterAll(() => ledger?.close());

  const send = (route: string, rawBody: string) => {
    const [method, path] = route.split(' ');
    return ledger.request(method, path, { token: ledger.adminToken, rawBody, headers: { 'content-type': 'application/json' } });
  };

  describe.each(FUZZED_ROUTES)('%s', (route) => {
    it.each([
      ['arrays', HOSTILE],
      ['objects', HOSTILE_OBJECT],
    ])('answers 400 REQUEST.TOO_DEEP to 1,400 levels of %s, in its API shape, recording nothing', async (_kind, body) => {
      const before = await store.headPosition();
      const response = await send(route, body);
      expect({ status: response.status, code: response.headers.get('x-error-code') }).toEqual({ status: 400, code: 'REQUEST.TOO_DEEP' });
      if (route.includes(' /v2/')) {
        expect(response.headers.get('openstack-api-maximum-version')).toBe('2.3');
        expect(response.body).toEqual({ error_message: expect.stringMatching(/more than 64 levels/), message: response.body.error_message });
      } else {
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(response.body).toMatchObject({ type: 'urn:accelerator-ledger:problem:REQUEST.TOO_DEEP', status: 400, code: 'REQUEST.TOO_DEEP', limit: 64 });
      }
      expect(await store.headPosition()).toBe(before);
    });
  });

  it('lets a body at the limit through to the usual validation', async () => {
    const response = await send('PUT /api/v1/hosts/compute-1/report', `${'['.repeat(64)}${']'.repeat(64)}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('x-error-code')).toBe('REQUEST.INVALID');
  });

  it('never answers 5xx on any served route, with or without a token, and records nothing', async () => {
    const routes = servedRoutes(ledger.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false })).filter((route) => !route.startsWith('HEAD '));
    expect(routes.length).toBeGreaterThan(40);
    const before = await store.headPosition();
    const answers: string[] = [];
    for (const route of routes) {
      const [method, template] = route.split(' ');
      const path = template.replace(/\{\}/g, SOME_UUID);
      for (const token of [ledger.adminToken, undefined]) {
        const headers = { 'content-type': 'application/json', 'content-length': String(HOSTILE.length), ...(token ? { 'x-auth-token': token } : {}) };
        const response = await nodeClientRequest(`${ledger.url}${path}`, method, headers, Buffer.from(HOSTILE));
        const expected = METHODS_WITH_BODIES.has(method) ? '400 REQUEST.TOO_DEEP' : 'under 500';
        const got = METHODS_WITH_BODIES.has(method) ? `${response.status} ${response.headers['x-error-code']}` : response.status < 500 ? 'under 500' : String(response.status);
        if (got !== expected) answers.push(`${route} (${token ? 'admin' : 'no token'}): ${got}, expected ${expected}`);
      }
    }
    expect(answers).toEqual([]);
    expect(await store.headPosition()).toBe(before);
  });
});
