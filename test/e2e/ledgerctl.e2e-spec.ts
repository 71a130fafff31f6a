import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

const ROOT = join(__dirname, '..', '..');

/** Runs the compiled CLI (npm test builds first) against the test ledger's data directory. */
function ledgerctl(ledger: TestLedger, ...args: string[]) {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run.js'), 'ledgerctl', ...args], {
    cwd: ROOT,
    env: { ...process.env, LEDGER_DATA_DIR: ledger.config.dataDir },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('ledgerctl against a live ledger', () => {
  let ledger: TestLedger;
  let exportFile: string;
  let removedAt: number;

  beforeAll(async () => {
    ledger = await startTestLedger();
    const report = (body: unknown) =>
      ledger.request('PUT', '/api/v1/hosts/compute-7/report', { token: ledger.adminToken, body });
    await report(hostReportBody(7, 0));
    await report(hostReportBody(7, 1));
    const shrunk = hostReportBody(7, 1);
    shrunk.devices = shrunk.devices.slice(0, 2);
    removedAt = (await report(shrunk)).body.position;
    exportFile = join(ledger.config.dataDir, 'export.jsonl');
  });
  afterAll(() => ledger.close());

  it('issues a token, and prints nothing else on stdout', () => {
    const { code, stdout } = ledgerctl(ledger, 'token', 'issue', '--user', 'u1', '--project', 'p1', '--role', 'member', 'reader');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(ledger.codec.verify(stdout.trim())).toMatchObject({ user: 'u1', project: 'p1', roles: ['member', 'reader'] });
  });

  it('issues an agent credential good for its host only', async () => {
    const { stdout } = ledgerctl(ledger, 'agent-credential', 'compute-8');
    const token = stdout.trim();
    expect(new TokenCodec(readFileSync(join(ledger.config.dataDir, 'credentials', 'signing.key'), 'utf8').trim()).verify(token)).toMatchObject({
      roles: ['agent'],
      host: 'compute-8',
    });
    const own = await ledger.request('PUT', '/api/v1/hosts/compute-8/report', { token, body: { devices: [] } });
    expect(own.status).toBe(200);
    const other = await ledger.request('PUT', '/api/v1/hosts/compute-7/report', { token, body: { devices: [] } });
    expect(other.body.code).toBe('AUTH.WRONG_HOST');
  });

  it('refuses bad usage with exit code 2', () => {
    expect(ledgerctl(ledger, 'token', 'issue', '--user', 'u', '--role', 'wizard').code).toBe(2);
    expect(ledgerctl(ledger, 'audit', 'replay', '--as-of', 'yesterday').code).toBe(2);
    expect(ledgerctl(ledger, 'no-such-command').code).toBe(2);
  });

  it('verifies the live chain, exports it, and verifies the export offline', () => {
    const live = ledgerctl(ledger, 'audit', 'verify', '--json');
    expect(live.code).toBe(0);
    const verdict = JSON.parse(live.stdout);
    expect(verdict).toMatchObject({ ok: true });
    expect(verdict.checked).toBeGreaterThanOrEqual(removedAt);

    const exported = ledgerctl(ledger, 'audit', 'export', '--out', exportFile);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(/exported \d+ events/);
    const lines = readFileSync(exportFile, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(verdict.checked);
    const offline = ledgerctl(ledger, 'audit', 'verify', '--file', exportFile);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain(`head position ${verdict.headPosition}`);
  });

  describe('names the first broken position of a tampered export', () => {
    const tamper = (edit: (lines: string[]) => string[]) => {
      const lines = readFileSync(exportFile, 'utf8').trim().split('\n');
      const file = `${exportFile}.tampered`;
      writeFileSync(file, `${edit(lines).join('\n')}\n`);
      return file;
    };

    it.each([
      [
        'a changed event',
        (lines: string[]) => lines.map((l, i) => (i === 2 ? JSON.stringify({ ...JSON.parse(l), type: 'inventory.DeviceRemoved' }) : l)),
        3,
        'content-changed',
      ],
      ['a deleted event', (lines: string[]) => lines.filter((_, i) => i !== 1), 3, 'position-gap'],
      ['reordered events', (lines: string[]) => [lines[0], lines[2], lines[1], ...lines.slice(3)], 3, 'position-gap'],
      [
        'an inserted event',
        (lines: string[]) => {
          const copy = JSON.parse(lines[1]);
          const shifted = lines.slice(2).map((l) => {
            const event = JSON.parse(l);
            return JSON.stringify({ ...event, position: event.position + 1 });
          });
          return [lines[0], lines[1], JSON.stringify({ ...copy, position: 3, id: '0196b3c2-5a1e-7c3d-9f00-4c1ed6e7a999' }), ...shifted];
        },
        3,
        'predecessor-mismatch',
      ],
    ])('%s', (_, edit, position, reason) => {
      const result = ledgerctl(ledger, 'audit', 'verify', '--json', '--file', tamper(edit));
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, firstBreak: { position, reason } });
    });
  });

  it('replays the inventory as of a position and as of a time', async () => {
    const before = ledgerctl(ledger, 'audit', 'replay', '--as-of', String(removedAt - 1), '--json', '--quiet');
    expect(before.code).toBe(0);
    const present = (d: { hostname: string; removed: number }) => d.hostname === 'compute-7' && !d.removed;
    const beforeDevices = JSON.parse(before.stdout).inventory.inv_devices.filter(present);
    const after = ledgerctl(ledger, 'audit', 'replay', '--as-of', String(removedAt), '--json', '--quiet');
    const afterDevices = JSON.parse(after.stdout).inventory.inv_devices.filter(present);
    expect(beforeDevices.length).toBeGreaterThan(afterDevices.length);
    expect(afterDevices).toHaveLength(2);

    const firstEventTime = JSON.parse(readFileSync(exportFile, 'utf8').split('\n')[0]).recordedAt as string;
    const asOfTime = ledgerctl(ledger, 'audit', 'replay', '--as-of', firstEventTime, '--file', exportFile, '--quiet');
    expect(asOfTime.code).toBe(0);
    expect(asOfTime.stdout).toMatch(/^inventory as of .* \(position \d+, \d+ events applied\)/);
    expect(asOfTime.stdout).toContain('host compute-7');
    const text = ledgerctl(ledger, 'audit', 'replay', '--as-of', String(removedAt), '--quiet').stdout;
    expect(text.match(/^ {2}device /gm)).toHaveLength(2);
  });
});
