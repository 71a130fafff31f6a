import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateCredentials, TokenCodec } from '@ledger/auth';
import { dataFiles, loadLedgerConfig } from '@ledger/config';
import { agentCredentials, CredentialsError } from './fleet-credentials';

describe('agentCredentials', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'simulate-credentials-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it("signs each host's own agent credential with the key the ledger made", () => {
    const { codec } = loadOrCreateCredentials(dataFiles(loadLedgerConfig({ LEDGER_DATA_DIR: dataDir })));

    const claims = codec.verify(agentCredentials(dataDir, {})('sim-00042'));

    expect(claims).toMatchObject({ user: 'agent:sim-00042', project: null, roles: ['agent'], host: 'sim-00042' });
  });

  it('signs with LEDGER_AUTH_SECRET when the ledger has one', () => {
    const secret = 's'.repeat(40);

    const token = agentCredentials(dataDir, { LEDGER_AUTH_SECRET: secret })('sim-00001');

    expect(new TokenCodec(secret).verify(token).host).toBe('sim-00001');
  });

  it('never makes a key of its own: without one it says where to find it', () => {
    expect(() => agentCredentials(dataDir, {})).toThrow(CredentialsError);
    expect(() => agentCredentials(dataDir, {})).toThrow(/signing\.key .*--data-dir.*LEDGER_AUTH_SECRET.*--token/);
    expect(existsSync(join(dataDir, 'credentials'))).toBe(false);
  });
});
