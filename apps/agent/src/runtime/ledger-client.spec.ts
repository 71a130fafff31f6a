import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { eventually } from '@ledger/processing/testing';
import { preferredIndex } from './ledger-addresses';
import { LedgerCallError } from './ledger-call.error';
import { LedgerClient, type LedgerClientOptions } from './ledger-client';

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

describe('LedgerClient with several ledger addresses', () => {
  /** A replica: answers with `handle`, counts what it saw, and can die (its port then refuses connections). */
  interface Replica {
    readonly url: string;
    readonly seen: { path?: string; boot?: string }[];
    handle: (response: ServerResponse) => void;
    die(): Promise<void>;
  }
  const replicas: Replica[] = [];
  const ok = (body: unknown = { appended: 0 }) => (response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const unavailable = (response: ServerResponse) =>
    response.writeHead(503, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ code: 'EVENTSTORE.CLOSED', detail: 'the event store is closed' }));

  async function replica(): Promise<Replica> {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        started.seen.push({ path: request.url, boot: request.headers['x-agent-boot'] as string });
        started.handle(response);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const started: Replica = {
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      seen: [],
      handle: ok(),
      async die() {
        server.closeAllConnections();
        if (server.listening) await new Promise((resolve) => server.close(resolve));
      },
    };
    replicas.push(started);
    return started;
  }
  afterEach(async () => {
    for (const each of replicas.splice(0)) await each.die();
  });

  /** A hostname whose preferred address is the `index`th of `count`. */
  const hostPreferring = (index: number, count: number) => {
    for (let n = 0; ; n++) if (preferredIndex(`compute-${n}`, count) === index) return `compute-${n}`;
  };
  const clientOf = (urls: readonly Replica[] | readonly string[], hostname: string, extra: Partial<LedgerClientOptions> = {}) =>
    new LedgerClient({ baseUrls: urls.map((each) => (typeof each === 'string' ? each : each.url)), token: 't', hostname, bootId: 'boot-1', ...extra });
  const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('resolved'); }, (error: unknown) => error as LedgerCallError);
  const calls = (...each: Replica[]) => each.map((one) => one.seen.length);

  it('spreads a fleet given the same list evenly over the addresses, each agent always on the same one', async () => {
    const three = [await replica(), await replica(), await replica()];
    for (let n = 0; n < 300; n++) await clientOf(three, `compute-${n}`).heartbeat({ agentVersion: '0.1.0', intervalSeconds: 15, devices: [] });
    // 100 each expected; the binomial's standard deviation is about 8.
    for (const count of calls(...three)) expect(count).toBeGreaterThan(70);
    expect(calls(...three).reduce((sum, count) => sum + count)).toBe(300);
    const again = three.map((one) => one.seen.length);
    await clientOf(three, 'compute-7').report([]);
    await clientOf(three, 'compute-7').report([]);
    expect(calls(...three).map((count, index) => count - again[index])).toEqual([0, 1, 2].map((index) => (index === preferredIndex('compute-7', 3) ? 2 : 0)));
  });

  it('tries the next address at once when its own refuses connections, and stays there', async () => {
    const [dead, alive] = [await replica(), await replica()];
    await dead.die();
    const host = hostPreferring(0, 2);
    const client = clientOf([dead, alive], host);
    expect(await client.report([])).toEqual({ appended: 0 });
    await client.heartbeat({ agentVersion: '0.1.0', intervalSeconds: 15, devices: [] });
    expect(alive.seen.map((call) => call.path)).toEqual([`/api/v1/hosts/${host}/report`, `/api/v1/hosts/${host}/heartbeat`]);
    expect(client.addressesInTurn()).toEqual([alive.url, dead.url]);
  });

  it('fails over on a 503 (a replica closing or not ready) and sends the next calls to the one that answered', async () => {
    const [closing, alive] = [await replica(), await replica()];
    closing.handle = unavailable;
    const failovers: unknown[] = [];
    const client = clientOf([closing, alive], hostPreferring(0, 2), { onFailover: (failover) => failovers.push(failover) });
    await client.postResult('j1', { outcome: 'completed', evidence: {} });
    await client.postResult('j2', { outcome: 'completed', evidence: {} });
    expect(calls(closing, alive)).toEqual([1, 2]);
    expect(failovers).toEqual([{ route: 'POST /api/v1/jobs/j1/result', from: closing.url, to: alive.url, reason: 'EVENTSTORE.CLOSED: the event store is closed' }]);
  });

  it('fails over when its address does not answer within the timeout', async () => {
    const [silent, alive] = [await replica(), await replica()];
    silent.handle = () => undefined;
    const client = clientOf([silent, alive], hostPreferring(0, 2), { timeoutMs: 200 });
    expect(await client.report([])).toEqual({ appended: 0 });
    expect(calls(silent, alive)).toEqual([1, 1]);
  });

  it('goes back to its preferred address once the return time has passed since the failover', async () => {
    const [preferred, other] = [await replica(), await replica()];
    let now = 1_000_000;
    const client = clientOf([preferred, other], hostPreferring(0, 2), { returnAfterMs: 300_000, now: () => now });
    preferred.handle = unavailable;
    await client.report([]);
    preferred.handle = ok();
    now += 299_999;
    await client.report([]);
    expect(calls(preferred, other)).toEqual([1, 2]);
    now += 1;
    await client.report([]);
    await client.report([]);
    expect(calls(preferred, other)).toEqual([3, 2]);
  });

  it('when its preferred address is still down at the return, fails over again and waits another return time', async () => {
    const [preferred, other] = [await replica(), await replica()];
    let now = 0;
    const client = clientOf([preferred, other], hostPreferring(0, 2), { returnAfterMs: 1000, now: () => now });
    preferred.handle = unavailable;
    await client.report([]);
    now += 1000;
    await client.report([]);
    now += 999;
    await client.report([]);
    expect(calls(preferred, other)).toEqual([2, 3]);
  });

  it('names every address and its failure when none answered, as retryable', async () => {
    const [dead, closing] = [await replica(), await replica()];
    await dead.die();
    closing.handle = unavailable;
    const error = await failure(clientOf([dead, closing], hostPreferring(0, 2)).report([]));
    expect(error).toMatchObject({ failure: 'server', status: 503, code: 'EVENTSTORE.CLOSED', retryable: true });
    expect(error.message).toBe(
      `PUT /api/v1/hosts/${hostPreferring(0, 2)}/report: no ledger address answered (${dead.url}: cannot reach the ledger (ECONNREFUSED); ${closing.url}: EVENTSTORE.CLOSED: the event store is closed)`,
    );
  });

  it('takes a 4xx or a 500 as the ledger\'s answer: not tried elsewhere', async () => {
    const [first, second] = [await replica(), await replica()];
    const client = clientOf([first, second], hostPreferring(0, 2));
    first.handle = (response) => response.writeHead(409, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ code: 'JOB.ALREADY_FINISHED', detail: 'job j1 is completed already' }));
    expect(await failure(client.postResult('j1', { outcome: 'completed', evidence: {} }))).toMatchObject({ failure: 'refused', status: 409, code: 'JOB.ALREADY_FINISHED' });
    first.handle = (response) => response.writeHead(500).end('bug');
    expect(await failure(client.report([]))).toMatchObject({ failure: 'server', status: 500 });
    expect(calls(first, second)).toEqual([2, 0]);
  });

  it('polls the next address with a new boot when the poll on its own was cut off, so jobs the dying replica dispatched are offered again', async () => {
    const [dying, alive] = [await replica(), await replica()];
    dying.handle = (response) => response.destroy();
    alive.handle = ok({ jobs: [{ jobId: 'j1', kind: 'discover', params: {}, timeoutSeconds: 60, requestedAt: 'now' }] });
    const client = clientOf([dying, alive], hostPreferring(0, 2));
    expect(await client.nextJobs(25)).toEqual([expect.objectContaining({ jobId: 'j1' })]);
    expect(dying.seen.map((call) => call.boot)).toEqual(['boot-1']);
    expect(alive.seen.map((call) => call.boot)).toEqual([client.bootId]);
    expect(client.bootId).not.toBe('boot-1');
  });

  it('does not fail over a call cancelled because the agent stops', async () => {
    const [silent, other] = [await replica(), await replica()];
    silent.handle = () => undefined;
    const stop = new AbortController();
    const polling = failure(clientOf([silent, other], hostPreferring(0, 2)).nextJobs(25, stop.signal));
    await eventually(() => silent.seen.length === 1);
    stop.abort();
    expect((await polling).message).toMatch(/cancelled: the agent is stopping/);
    expect(calls(silent, other)).toEqual([1, 0]);
  });
});
