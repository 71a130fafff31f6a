import { request as httpRequest } from 'node:http';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { nodeClientRequest, rawRequest, writeAllThenRead } from '../support/raw-http';

const FIVE_MB = Buffer.alloc(5_000_000, ' ');
const ATTEMPTS = 20;

describe('a body over LEDGER_BODY_LIMIT_BYTES', () => {
  let ledger: TestLedger;
  let headers: Record<string, string>;

  beforeAll(async () => {
    ledger = await startTestLedger();
    headers = { 'content-type': 'application/json', 'x-auth-token': ledger.token({ user: 'agent:x', project: null, roles: ['agent'], host: 'x' }) };
  });
  afterAll(() => ledger?.close());

  const expectProblem = (answer: { status: number; body: string }) => {
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413, code: 'REQUEST.TOO_LARGE', type: 'urn:accelerator-ledger:problem:REQUEST.TOO_LARGE' });
  };

  it('is answered 413 to a client that writes all 5 MB before it reads, every time', async () => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const answers = await writeAllThenRead(ledger.url, [rawRequest('PUT', '/api/v1/hosts/x/report', headers, FIVE_MB)]);
      expect(answers).toHaveLength(1);
      expectProblem(answers[0]);
    }
  });

  it("is answered 413 to Node's client, with a length or chunked, every time", async () => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      expectProblem(await nodeClientRequest(`${ledger.url}/api/v1/hosts/x/report`, 'PUT', { ...headers, 'content-length': String(FIVE_MB.length) }, FIVE_MB));
      expectProblem(await nodeClientRequest(`${ledger.url}/api/v1/hosts/x/report`, 'PUT', headers, FIVE_MB));
    }
  });

  it("is answered in Cyborg's shape under /v2", async () => {
    const [answer] = await writeAllThenRead(ledger.url, [rawRequest('POST', '/v2/device_profiles', headers, FIVE_MB)]);
    expect(answer.status).toBe(413);
    expect(answer.headers['x-error-code']).toBe('REQUEST.TOO_LARGE');
    expect(JSON.parse(answer.body)).toEqual({ error_message: expect.stringMatching(/too large/i), message: expect.any(String) });
  });

  it('leaves the connection usable once the rest of the body is read', async () => {
    const answers = await writeAllThenRead(ledger.url, [
      rawRequest('PUT', '/api/v1/hosts/x/report', headers, FIVE_MB),
      rawRequest('GET', '/healthz', { connection: 'close' }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([413, 200]);
    expect(JSON.parse(answers[1].body)).toEqual({ status: 'ok' });
  });

  it('is refused before the body is sent when the client asks for 100-continue', async () => {
    const answer = await new Promise<{ status: number; body: string; continued: boolean }>((resolve, reject) => {
      let continued = false;
      const request = httpRequest(`${ledger.url}/api/v1/hosts/x/report`, {
        method: 'PUT',
        headers: { ...headers, 'content-length': String(FIVE_MB.length), expect: '100-continue' },
      });
      request.on('continue', () => {
        continued = true;
        request.end(FIVE_MB);
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, continued }));
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(answer.continued).toBe(false);
    expectProblem(answer);
  });
});
