import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { LedgerCallError } from './ledger-call.error';
import { LedgerClient } from './ledger-client';

describe('LedgerClient', () => {
  let server: Server;
  let url: string;
  let handle: (request: IncomingMessage, body: string, response: ServerResponse) => void;
  const seen: { method?: string; url?: string; token?: string; boot?: string; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, token: request.headers['x-auth-token'] as string, boot: request.headers['x-agent-boot'] as string, body });
        handle(request, body, response);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const client = (timeoutMs?: number) => new LedgerClient({ baseUrls: [url], token: 'agent-token', hostname: 'compute-1', timeoutMs, bootId: 'boot-1' });
  const json = (status: number, body: unknown) => (_: IncomingMessage, __: string, response: ServerResponse) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('resolved'); }, (error: unknown) => error as LedgerCallError);

  it('speaks the protocol: report, heartbeat, long poll and result, with the agent token', async () => {
    handle = json(200, { hostname: 'compute-1', appended: 0, position: null, events: [], jobsWaiting: 0, jobs: [{ jobId: 'j1', kind: 'discover', params: {}, timeoutSeconds: 60, requestedAt: 'now' }] });
    seen.length = 0;
    await client().report([]);
    await client().heartbeat({ agentVersion: '0.1.0', intervalSeconds: 15, devices: [] });
    expect(await client().nextJobs(25)).toEqual([expect.objectContaining({ jobId: 'j1', kind: 'discover' })]);
    await client().postResult('j1', { outcome: 'completed', evidence: { devices: 0 } });
    expect(seen).toEqual([
      { method: 'PUT', url: '/api/v1/hosts/compute-1/report', token: 'agent-token', boot: 'boot-1', body: '{"devices":[]}' },
      { method: 'POST', url: '/api/v1/hosts/compute-1/heartbeat', token: 'agent-token', boot: 'boot-1', body: '{"agentVersion":"0.1.0","intervalSeconds":15,"devices":[]}' },
      { method: 'GET', url: '/api/v1/hosts/compute-1/jobs/next?waitSeconds=25', token: 'agent-token', boot: 'boot-1', body: '' },
      { method: 'POST', url: '/api/v1/jobs/j1/result', token: 'agent-token', boot: 'boot-1', body: '{"outcome":"completed","evidence":{"devices":0}}' },
    ]);
  });

  it('names a fresh boot per client unless told', () => {
    const first = new LedgerClient({ baseUrls: [url], token: 't', hostname: 'h' });
    const second = new LedgerClient({ baseUrls: [url], token: 't', hostname: 'h' });
    expect(first.bootId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.bootId).not.toBe(second.bootId);
  });

  it('classifies a 4xx as refused with the problem code, not retryable unless it is about credentials', async () => {
    handle = json(409, { code: 'JOB.ALREADY_FINISHED', detail: 'timed out' });
    const conflict = await failure(client().postResult('j1', { outcome: 'completed', evidence: {} }));
    expect(conflict).toMatchObject({ failure: 'refused', status: 409, code: 'JOB.ALREADY_FINISHED', retryable: false });
    expect(conflict.message).toBe('POST /api/v1/jobs/j1/result: JOB.ALREADY_FINISHED: timed out');
    handle = json(403, { code: 'AUTH.WRONG_HOST', detail: 'not yours' });
    expect(await failure(client().report([]))).toMatchObject({ failure: 'refused', status: 403, retryable: true });
  });

  it('classifies a 5xx as a server failure, retryable, with HTTP.<status> when there is no problem document', async () => {
    handle = (_, __, response) => response.writeHead(502).end('bad gateway');
    expect(await failure(client().report([]))).toMatchObject({ failure: 'server', status: 502, code: 'HTTP.502', retryable: true });
  });

  it('classifies a closed port and a silent ledger as unreachable', async () => {
    const closed = new LedgerClient({ baseUrls: ['http://127.0.0.1:1'], token: 't', hostname: 'compute-1' });
    expect(await failure(closed.report([]))).toMatchObject({ failure: 'unreachable', status: 0, retryable: true });
    handle = () => undefined;
    const silent = await failure(client(200).report([]));
    expect(silent).toMatchObject({ failure: 'unreachable', retryable: true });
    expect(silent.message).toMatch(/no answer within 0.2 s/);
  });

  it('names a new boot after a failed poll, whose answer may have held jobs the ledger then counts as dispatched to the old one', async () => {
    const polling = client();
    handle = (_, __, response) => response.destroy();
    seen.length = 0;
    await failure(polling.nextJobs(25));
    handle = json(200, { jobs: [] });
    await polling.nextJobs(25);
    await polling.report([]);
    expect(seen.map((call) => call.boot)).toEqual(['boot-1', polling.bootId, polling.bootId]);
    expect(polling.bootId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps its boot while polls succeed', async () => {
    const polling = client();
    handle = json(200, { jobs: [] });
    seen.length = 0;
    await polling.nextJobs(25);
    await polling.nextJobs(25);
    expect(seen.map((call) => call.boot)).toEqual(['boot-1', 'boot-1']);
  });

  it('gives up a long poll at once when the agent stops', async () => {
    handle = () => undefined;
    const stop = new AbortController();
    const polling = failure(client().nextJobs(25, stop.signal));
    stop.abort();
    expect((await polling).message).toMatch(/cancelled: the agent is stopping/);
  });
});
