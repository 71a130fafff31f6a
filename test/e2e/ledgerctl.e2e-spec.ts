import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { chainHash, contentHash, type RecordedEvent } from '@ledger/eventstore';
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
    const { header, lines } = exportLines();
    expect(lines).toHaveLength(verdict.checked);
    expect(JSON.parse(header[header.length - 1]).checkpoint).toMatchObject({ position: verdict.headPosition, hash: verdict.headHash });
    const offline = ledgerctl(ledger, 'audit', 'verify', '--file', exportFile);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain(`head position ${verdict.headPosition}`);
    expect(offline.stdout).toContain(`anchored by the checkpoint at position ${verdict.headPosition}`);
  });

  /** The export's header (signed checkpoints) and its event lines. */
  const exportLines = () => {
    const all = readFileSync(exportFile, 'utf8').trim().split('\n');
    const header = all.filter((line) => line.startsWith('{"checkpoint"'));
    return { header, lines: all.slice(header.length) };
  };

  const tamper = (edit: (lines: string[]) => string[], keepHeader = true) => {
    const { header, lines } = exportLines();
    const file = `${exportFile}.tampered`;
    writeFileSync(file, `${[...(keepHeader ? header : []), ...edit(lines)].join('\n')}\n`);
    return file;
  };

  /** What a forger with write access does after an edit: recompute every hash from there on. */
  const rechained = (lines: string[]) => {
    let prevHash = '0'.repeat(64);
    return lines.map((line) => {
      const event = JSON.parse(line) as RecordedEvent;
      const hash = chainHash(prevHash, event.position, event.stream, event.version, contentHash(event));
      const linked = { ...event, prevHash, hash };
      prevHash = hash;
      return JSON.stringify(linked);
    });
  };

  describe('catches what only the signed checkpoint can see, in an export', () => {
    const editThird = (lines: string[]) => lines.map((l, i) => (i === 2 ? JSON.stringify({ ...JSON.parse(l), type: 'inventory.DeviceRemoved' }) : l));

    it('a rewrite with every later hash recomputed', () => {
      const file = tamper((lines) => rechained(editThird(lines)));
      const result = ledgerctl(ledger, 'audit', 'verify', '--json', '--file', file);
      expect(result.code).toBe(1);
      const { lines } = exportLines();
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, firstBreak: { position: lines.length, reason: 'checkpoint-mismatch' } });
    });

    it('a cut tail', () => {
      const result = ledgerctl(ledger, 'audit', 'verify', '--json', '--file', tamper((lines) => lines.slice(0, -2)));
      expect(result.code).toBe(1);
      const { lines } = exportLines();
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, firstBreak: { position: lines.length - 1, reason: 'truncated' } });
    });

    it("a stripped header, against the auditor-held key and checkpoints; and a stranger's key", () => {
      const publicKey = ledgerctl(ledger, 'audit', 'public-key');
      expect(publicKey.code).toBe(0);
      expect(publicKey.stdout).toMatch(/^-----BEGIN PUBLIC KEY-----/);
      const keyFile = join(ledger.config.dataDir, 'auditor.pem');
      writeFileSync(keyFile, publicKey.stdout);
      const stripped = tamper((lines) => rechained(editThird(lines)).slice(0, -1), false);
      const unanchored = ledgerctl(ledger, 'audit', 'verify', '--file', stripped);
      expect(unanchored.stdout).toContain('NOT anchored');
      const { header } = exportLines();
      const checkpoints = join(ledger.config.dataDir, 'auditor-checkpoints.jsonl');
      writeFileSync(checkpoints, header.map((line) => JSON.stringify(JSON.parse(line).checkpoint)).join('\n'));
      const held = ledgerctl(ledger, 'audit', 'verify', '--json', '--file', stripped, '--public-key', keyFile, '--checkpoints', checkpoints);
      expect(held.code).toBe(1);
      expect(JSON.parse(held.stdout).firstBreak.reason).toBe('truncated');
      const strangerKey = join(ledger.config.dataDir, 'stranger.pem');
      writeFileSync(strangerKey, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
      const wrongKey = ledgerctl(ledger, 'audit', 'verify', '--json', '--file', exportFile, '--public-key', strangerKey);
      expect(JSON.parse(wrongKey.stdout).firstBreak.reason).toBe('checkpoint-forged');
    });
  });

  describe('names the first broken position of a tampered export', () => {
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

    const firstEventTime = JSON.parse(exportLines().lines[0]).recordedAt as string;
    const asOfTime = ledgerctl(ledger, 'audit', 'replay', '--as-of', firstEventTime, '--file', exportFile, '--quiet');
    expect(asOfTime.code).toBe(0);
    expect(asOfTime.stdout).toMatch(/^inventory as of .* \(position \d+, \d+ events applied\)/);
    expect(asOfTime.stdout).toContain('host compute-7');
    const text = ledgerctl(ledger, 'audit', 'replay', '--as-of', String(removedAt), '--quiet').stdout;
    expect(text.match(/^ {2}device /gm)).toHaveLength(2);
  });
});
