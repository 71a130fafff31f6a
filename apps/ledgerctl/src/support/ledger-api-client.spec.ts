import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './cli-error';
import { LedgerApiClient, LedgerApiError } from './ledger-api-client';

describe('LedgerApiClient', () => {
  let server: Server;
  let url: string;
  const seen: { method?: string; url?: string; token?: string; body?: string; minPosition?: string }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, token: request.headers['x-auth-token'] as string, body, minPosition: request.headers['x-ledger-min-position'] as string });
        if (request.url === '/ok') response.writeHead(200, { 'content-type': 'application/json' }).end('{"fine":true}');
        else if (request.url === '/problem')
          response.writeHead(403, { 'content-type': 'application/problem+json' }).end('{"code":"QUOTA.PROJECT_FORBIDDEN","detail":"not yours"}');
        else response.writeHead(502).end('bad gateway');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('sends the token and the JSON body, and parses the answer', async () => {
    const client = new LedgerApiClient(url, 'tok');
    await expect(client.request('PUT', '/ok', { a: 1 })).resolves.toEqual({ fine: true });
    expect(seen.at(-1)).toEqual({ method: 'PUT', url: '/ok', token: 'tok', body: '{"a":1}' });
  });

  it('sends extra headers, but never lets them replace the token', async () => {
    const client = new LedgerApiClient(url, 'tok');
    await client.request('GET', '/ok', undefined, { headers: { 'x-ledger-min-position': '42', 'x-auth-token': 'other' } });
    expect(seen.at(-1)).toMatchObject({ token: 'tok', minPosition: '42' });
  });

  it('turns problem details into a LedgerApiError with the code, exit code 1', async () => {
    const error = await new LedgerApiClient(url, 'tok').request('GET', '/problem').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerApiError);
    expect(error).toMatchObject({ status: 403, code: 'QUOTA.PROJECT_FORBIDDEN', exitCode: 1, message: 'QUOTA.PROJECT_FORBIDDEN: not yours' });
    await expect(new LedgerApiClient(url, 'tok').request('GET', '/other')).rejects.toMatchObject({ code: 'HTTP.502', message: 'HTTP.502: bad gateway' });
  });

  it('says plainly when the ledger cannot be reached', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await new LedgerApiClient(`http://127.0.0.1:${port}`, 'tok').request('GET', '/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toBe(`cannot reach the ledger at http://127.0.0.1:${port} (ECONNREFUSED)`);
    expect((error as CliError).exitCode).toBe(1);
  });

  it('takes the URL and token from options, then LEDGER_URL / LEDGER_TOKEN, then the config and the admin token file', async () => {
    expect(LedgerApiClient.fromOptions({ url: 'http://a:1/', token: 't' }, {}).baseUrl).toBe('http://a:1');
    expect(LedgerApiClient.fromOptions({}, { LEDGER_URL: 'http://b:2', LEDGER_TOKEN: 't' }).baseUrl).toBe('http://b:2');
    expect(() => LedgerApiClient.fromOptions({ url: 'ftp://x', token: 't' }, {})).toThrow(expect.objectContaining({ exitCode: 2, message: 'invalid configuration: --url: "ftp://x" is not an http(s) URL' }));
    expect(() => LedgerApiClient.fromOptions({ token: 't' }, { PORT: 'http' })).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining('PORT') }));
    expect(LedgerApiClient.fromOptions({ token: 't' }, { PORT: '9001' }).baseUrl).toBe('http://127.0.0.1:9001');

    const dataDir = mkdtempSync(join(tmpdir(), 'ledgerctl-api-'));
    const saved = { ...process.env };
    try {
      process.env.LEDGER_DATA_DIR = dataDir;
      process.env.PORT = new URL(url).port;
      delete process.env.LEDGER_URL;
      delete process.env.LEDGER_TOKEN;
      expect(() => LedgerApiClient.fromOptions({})).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining('no token') }));
      mkdirSync(join(dataDir, 'credentials'));
      writeFileSync(join(dataDir, 'credentials', 'admin.token'), 'from-file\n');
      const client = LedgerApiClient.fromOptions({});
      expect(client.baseUrl).toBe(url);
      await client.request('GET', '/ok');
      expect(seen.at(-1)?.token).toBe('from-file');
    } finally {
      process.env = saved;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
