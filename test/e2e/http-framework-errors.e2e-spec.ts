import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';
import { nodeClientRequest, writeAllThenRead } from '../support/raw-http';

type Shape = 'native' | 'v2';

interface Case {
  readonly name: string;
  readonly status: number;
  readonly code: string;
  /** The request in each API: the native one answers problem details, /v2 Cyborg's shape. */
  readonly send: Record<Shape, (ledger: TestLedger) => Promise<TestResponse>>;
  readonly allow?: string;
}

const json = (rawBody: string) => ({ rawBody, headers: { 'content-type': 'application/json' } });

/** Errors Fastify raises before any handler runs: each must come out in the ledger's two shapes with a stable code. */
const CASES: Case[] = [
  {
    name: 'a malformed percent-escape in the URL',
    status: 400,
    code: 'REQUEST.BAD_URL',
    send: { native: (l) => l.request('GET', '/api/v1/devices/%ZZ'), v2: (l) => l.request('GET', '/v2/accelerator_requests/%ZZ') },
  },
  {
    name: 'a body that is not JSON',
    status: 400,
    code: 'REQUEST.MALFORMED_JSON',
    send: { native: (l) => l.request('PUT', '/api/v1/hosts/x/report', json('{"devices":')), v2: (l) => l.request('POST', '/v2/device_profiles', json('[{')) },
  },
  {
    name: 'an empty body sent as JSON',
    status: 400,
    code: 'REQUEST.MALFORMED_JSON',
    send: { native: (l) => l.request('PUT', '/api/v1/hosts/x/report', json('')), v2: (l) => l.request('POST', '/v2/device_profiles', json('')) },
  },
  {
    name: 'a body of another media type',
    status: 415,
    code: 'REQUEST.UNSUPPORTED_MEDIA_TYPE',
    send: {
      native: (l) => l.request('PUT', '/api/v1/hosts/x/report', { rawBody: 'devices', headers: { 'content-type': 'text/plain' } }),
      v2: (l) => l.request('POST', '/v2/device_profiles', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    },
  },
  {
    name: 'a body over the limit',
    status: 413,
    code: 'REQUEST.TOO_LARGE',
    send: {
      native: (l) => l.request('PUT', '/api/v1/hosts/x/report', json(`"${'x'.repeat(1_100_000)}"`)),
      v2: (l) => l.request('POST', '/v2/device_profiles', json(`"${'x'.repeat(1_100_000)}"`)),
    },
  },
  {
    name: 'a path no route serves',
    status: 404,
    code: 'ROUTE.NOT_FOUND',
    send: { native: (l) => l.request('GET', '/api/v1/nothing-here'), v2: (l) => l.request('GET', '/v2/nothing_here') },
  },
  {
    name: 'a method the path does not serve',
    status: 405,
    code: 'ROUTE.METHOD_NOT_ALLOWED',
    allow: 'GET, HEAD',
    send: { native: (l) => l.request('DELETE', '/api/v1/devices'), v2: (l) => l.request('POST', '/v2/devices') },
  },
  {
    name: 'a path segment over 8192 characters',
    status: 414,
    code: 'REQUEST.URL_TOO_LONG',
    send: { native: (l) => l.request('GET', `/api/v1/devices/${'d'.repeat(9000)}`), v2: (l) => l.request('GET', `/v2/device_profiles/${'n'.repeat(9000)}`) },
  },
  {
    // Node's HTTP parser refuses it before Fastify sees a request: the ledger answers on the socket itself.
    name: 'a request line and headers over 16 KiB',
    status: 431,
    code: 'REQUEST.HEAD_TOO_LARGE',
    send: { native: (l) => l.request('GET', `/api/v1/devices?q=${'q'.repeat(17_000)}`), v2: (l) => l.request('GET', `/v2/devices?q=${'q'.repeat(17_000)}`) },
  },
];

describe("Fastify's own errors, in the ledger's shapes", () => {
  let ledger: TestLedger;

  beforeAll(async () => {
    ledger = await startTestLedger();
  });
  afterAll(() => ledger?.close());

  describe.each(CASES)('$name', ({ status, code, send, allow }) => {
    it('is RFC 9457 problem details on the native API', async () => {
      const response = await send.native(ledger);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('x-error-code')).toBe(code);
      expect(response.body).toMatchObject({ type: `urn:accelerator-ledger:problem:${code}`, status, code, detail: expect.any(String) });
      expect(response.headers.get('allow')).toBe(allow ?? null);
    });

    it("is Cyborg's error_message under /v2, with Cyborg's version headers", async () => {
      const response = await send.v2(ledger);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('x-error-code')).toBe(code);
      expect(response.headers.get('openstack-api-maximum-version')).toBe('2.3');
      expect(response.body).toEqual({ error_message: expect.any(String), message: response.body.error_message });
      expect(response.headers.get('allow')).toBe(allow ?? null);
    });
  });

  it("answers a header over 16 KiB to Node's own keep-alive client, request after request, while it is still sending", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const answer = await nodeClientRequest(`${ledger.url}/api/v1/hosts/h1`, 'GET', { 'x-correlation-id': 'x'.repeat(40_000) }, Buffer.alloc(0));
      expect(answer).toMatchObject({ status: 431, headers: { 'x-error-code': 'REQUEST.HEAD_TOO_LARGE' } });
    }
  });

  it('answers bytes that are not HTTP with problem details and closes the connection', async () => {
    const [answer, ...more] = await writeAllThenRead(ledger.url, [Buffer.from('GET /api/v1/devices HTTP/1.1\r\nhost ledger\r\n\r\n', 'latin1')]);
    expect(more).toEqual([]);
    expect(answer).toMatchObject({ status: 400, headers: { 'x-error-code': 'REQUEST.MALFORMED_HTTP', connection: 'close' } });
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'REQUEST.MALFORMED_HTTP', status: 400, instance: '/api/v1/devices' });
  });

  it('lists every method a path serves in Allow', async () => {
    const response = await ledger.request('PUT', '/v2/device_profiles');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST, DELETE');
  });

  it('serves a device profile name of 255 characters rather than calling the URL too long', async () => {
    const response = await ledger.request('GET', `/v2/device_profiles/${'n'.repeat(255)}`, {
      token: ledger.adminToken,
      headers: { 'openstack-api-version': 'accelerator 2.2' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-error-code')).toBe('DEVICE_PROFILE.NOT_FOUND');
  });
});
