import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logLines } from '../support/log-lines';
import { type LedgerProcess, startLedgerProcess } from '../support/ledger-process';

/** Unguessable, so finding one in the output can only mean it was logged. */
const secret = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;

describe('what the ledger logs (needs `node scripts/build.js`)', () => {
  const secrets = {
    authSecret: secret('auth-secret'),
    keystonePassword: secret('keystone-password'),
    credentialSecret: secret('app-credential-secret'),
    novaToken: secret('nova-token'),
    forgedToken: secret('forged-token'),
    serviceToken: secret('service-token'),
    bearer: secret('bearer'),
    bodyPassword: secret('body-password'),
  };
  let dataDir: string;
  let ledger: LedgerProcess;
  let adminToken: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-log-secrets-'));
    ledger = await startLedgerProcess({
      LEDGER_DATA_DIR: dataDir,
      LEDGER_LOG_LEVEL: 'verbose',
      LEDGER_LOG_FORMAT: 'json',
      LEDGER_AUTH_SECRET: secrets.authSecret,
      // Keystone unreachable: every Keystone token is refused with 503, and logged as such; the ledger's own tokens still work.
      LEDGER_AUTH: 'keystone',
      LEDGER_KEYSTONE_URL: 'http://127.0.0.1:9/v3',
      LEDGER_KEYSTONE_USERNAME: 'cyborg',
      LEDGER_KEYSTONE_PASSWORD: secrets.keystonePassword,
      LEDGER_KEYSTONE_TIMEOUT_MS: '500',
      LEDGER_NOVA_URL: 'http://127.0.0.1:9/v2.1',
      LEDGER_NOVA_TOKEN: secrets.novaToken,
    });
    adminToken = readFileSync(join(dataDir, 'credentials', 'admin.token'), 'utf8').trim();
  });
  afterAll(async () => {
    await ledger?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const send = (path: string, init: RequestInit = {}) => fetch(`${ledger.url}${path}`, init).then(async (response) => ({ status: response.status, body: await response.text() }));

  it('holds no token, password or secret, at the most verbose level, through answered and refused requests', async () => {
    const json = { 'content-type': 'application/json' };
    const answers = [
      await send('/api/v1/hosts', { headers: { 'x-auth-token': adminToken } }),
      await send('/api/v1/hosts/nope', { headers: { 'x-auth-token': adminToken } }),
      await send('/api/v1/hosts', { headers: { 'x-auth-token': secrets.forgedToken } }),
      await send('/v2/accelerator_requests', { headers: { 'x-auth-token': adminToken, 'x-service-token': secrets.serviceToken } }),
      await send('/api/v1/hosts', { headers: { authorization: `Bearer ${secrets.bearer}` } }),
      await send('/api/v1/hosts/x/report', { method: 'PUT', headers: { ...json, 'x-auth-token': adminToken }, body: `{"password": "${secrets.bodyPassword}", ` }),
      await send('/v2/device_profiles', { method: 'POST', headers: { ...json, 'x-auth-token': adminToken }, body: JSON.stringify([{ name: 'dp', password: secrets.bodyPassword, groups: [] }]) }),
      await send('/graphql', { method: 'POST', headers: { ...json, 'x-auth-token': secrets.forgedToken }, body: JSON.stringify({ query: '{ __typename }' }) }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 503, expect.any(Number), expect.any(Number), 400, 400, 503]);
    // The answers are logged once the requests are done; the debug line of the last one marks the end.
    await waitForLogged('/graphql');
    const output = ledger.output();
    for (const value of [adminToken, ...Object.values(secrets)]) expect(output).not.toContain(value);
    // The admin token's signature is what makes it a credential: no part of it may show either.
    expect(output).not.toContain(adminToken.slice(-20));
  });

  it('writes JSON lines only, each request logged with its id and the correlation id the client sent', async () => {
    const correlationId = randomUUID();
    expect((await send('/api/v1/hosts/nowhere', { headers: { 'x-auth-token': adminToken, 'x-correlation-id': correlationId } })).status).toBe(404);
    await waitForLogged('/api/v1/hosts/nowhere');
    const lines = logLines(ledger.output()).filter((line) => line.correlationId === correlationId);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'debug', context: 'HTTP', msg: 'GET /api/v1/hosts/nowhere → 404 INVENTORY.HOST_NOT_FOUND', requestId: expect.any(String) }),
      expect.objectContaining({ level: 'debug', context: 'HTTP', msg: 'GET /api/v1/hosts/nowhere → 404', statusCode: 404, durationMs: expect.any(Number) }),
    ]);
    expect(lines[0].requestId).toBe(lines[1].requestId);
    expect(lines[0].requestId).not.toBe(correlationId);
  });

  async function waitForLogged(url: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!logLines(ledger.output()).some((line) => line.url === url)) {
      if (Date.now() > deadline) throw new Error(`no request line for ${url}:\n${ledger.output().slice(-3_000)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
});
