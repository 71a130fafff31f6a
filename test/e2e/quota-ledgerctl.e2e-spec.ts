import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { freePort } from '../support/ledger-process';
import { ledgerctl } from '../support/ledgerctl-process';

describe('ledgerctl quota against a live ledger', () => {
  let ledger: TestLedger;
  let env: Record<string, string>;

  beforeAll(async () => {
    ledger = await startTestLedger();
    // The admin token comes from the file the ledger wrote under its data directory.
    env = { LEDGER_DATA_DIR: ledger.config.dataDir, LEDGER_URL: ledger.url };
  });
  afterAll(() => ledger.close());

  it('sets limits, and show --json reflects them', async () => {
    const set = await ledgerctl(env, 'quota', 'set', 'p1', 'FPGA=4', 'capacity:memoryGiB=160', 'PGPU=2');
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toContain('project p1');
    expect(set.stdout).toMatch(/^FPGA +4 +0$/m);

    const unset = await ledgerctl(env, 'quota', 'set', 'p1', 'FPGA=3', '--unset', 'PGPU', '--json');
    expect(unset.code).toBe(0);
    expect(JSON.parse(unset.stdout)).toMatchObject({ limits: { FPGA: 3, 'capacity:memoryGiB': 160 }, appended: 2 });

    const show = await ledgerctl(env, 'quota', 'show', 'p1', '--json');
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toEqual({ project: 'p1', limits: { FPGA: 3, 'capacity:memoryGiB': 160 }, usage: {} });
    expect((await ledger.request('GET', '/api/v1/quotas/p1', { token: ledger.adminToken })).body.limits).toEqual({ FPGA: 3, 'capacity:memoryGiB': 160 });

    const table = await ledgerctl(env, 'quota', 'show', 'p1');
    expect(table.stdout.split('\n').slice(1, 4)).toEqual(['RESOURCE            LIMIT  IN USE', 'FPGA                3      0', 'capacity:memoryGiB  160    0']);
  });

  it('exits 1 with the ledger’s code on stderr for a bad resource name, and changes nothing', async () => {
    const before = (await ledger.request('GET', '/readyz')).body.headPosition;
    const bad = await ledgerctl(env, 'quota', 'set', 'p1', 'fpga=1');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^ledgerctl: QUOTA\.INVALID: quota: limits\.fpga is not a resource/);
    expect((await ledger.request('GET', '/readyz')).body.headPosition).toBe(before);
  });

  it('passes an explicit token through, and shows the refusal of a non-admin', async () => {
    const member = ledger.token({ user: 'alice', project: 'p2', roles: ['member'] });
    const forbidden = await ledgerctl({ LEDGER_URL: ledger.url, LEDGER_TOKEN: member }, 'quota', 'show', 'p1');
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain('QUOTA.PROJECT_FORBIDDEN');
    const own = await ledgerctl({ LEDGER_URL: ledger.url }, 'quota', 'show', 'p2', '--token', member);
    expect(own.code).toBe(0);
    expect(own.stdout).toContain('no limits set');
  });

  it('exits 2 on bad usage and 1 with a clear line when the ledger cannot be reached', async () => {
    expect((await ledgerctl(env, 'quota', 'set', 'p1', 'FPGA')).code).toBe(2);
    expect((await ledgerctl(env, 'quota', 'set', 'p1')).code).toBe(2);
    expect((await ledgerctl(env, 'quota', 'show')).code).toBe(2);
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await ledgerctl({ ...env, LEDGER_URL: nobody }, 'quota', 'show', 'p1');
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toBe(`ledgerctl: cannot reach the ledger at ${nobody} (ECONNREFUSED)\n`);
  });
});
