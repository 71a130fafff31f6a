import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { eventually } from '@ledger/processing/testing';
import { hostReportBody, hostname } from '../support/fleet';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';

const ROOT = join(__dirname, '..', '..');
const SECRET = 'backup-test-signing-key-0123456789abcdef';
const WRITERS = 4;

interface Ack {
  readonly hostname: string;
  readonly position: number;
}

/** Runs the compiled CLI as its own process, without blocking this one (the writers keep going meanwhile). */
async function ledgerctl(dataDir: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'run.js'), 'ledgerctl', ...args], {
    cwd: ROOT,
    env: { ...process.env, LEDGER_DATA_DIR: dataDir, LEDGER_AUTH_SECRET: SECRET },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * Issue 11's backup/restore for SQLite, as docs/operations.md describes it:
 * `ledgerctl backup` while host reports keep coming in, the copy put into a
 * fresh data dir, a ledger started on it. The chain verifies, nothing had
 * to be rebuilt, and exactly the reports acknowledged up to the copy's head
 * are served.
 */
describe('ledgerctl backup: a consistent copy of a running SQLite ledger, restored', () => {
  const dirs: string[] = [];
  const ledgers: LedgerProcess[] = [];
  const admin = new TokenCodec(SECRET).issue({ user: 'admin', project: 'admin', roles: ['admin'] });
  afterAll(async () => {
    for (const ledger of ledgers) await ledger.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const envFor = (dataDir: string) => ({ LEDGER_DATA_DIR: dataDir, LEDGER_AUTH_SECRET: SECRET, LEDGER_CHECKPOINT_SECONDS: '1' });

  it('backs up under concurrent writes; the restored ledger verifies and serves the backed-up state', async () => {
    const dataDir = tempDir('ledger-live-');
    const live = await startLedgerProcess(envFor(dataDir));
    ledgers.push(live);
    const acks: Ack[] = [];
    let writing = true;
    const writer = async (index: number) => {
      for (let generation = 0; writing; generation++) {
        const host = hostname(index * 1000 + generation);
        const response = await fetch(`${live.url}/api/v1/hosts/${host}/report`, {
          method: 'PUT',
          headers: { 'x-auth-token': admin, 'content-type': 'application/json' },
          body: JSON.stringify(hostReportBody(index, generation)),
        });
        if (response.status !== 200) throw new Error(`report refused: ${response.status} ${await response.text()}`);
        acks.push({ hostname: host, position: ((await response.json()) as { position: number }).position });
      }
    };
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, index) => writer(index)));
    try {
      // A signed head checkpoint exists (every second) and reports are still coming in.
      await eventually(() => existsSync(join(dataDir, 'checkpoints.jsonl')), 10_000);
      await eventually(() => acks.length >= 20, 10_000);
      const backupDir = join(tempDir('ledger-backup-'), 'copy');
      const backup = await ledgerctl(dataDir, 'backup', '--out', backupDir);
      expect(backup).toMatchObject({ code: 0 });
      expect(backup.stderr).toMatch(/backed up checkpoints\.jsonl, credentials, read-models\.sqlite, events\.sqlite/);
      const atBackup = acks.length;
      await eventually(() => acks.length >= atBackup + 20, 10_000);
      writing = false;
      await writers;
      await live.kill('SIGTERM');

      const restoredDir = tempDir('ledger-restored-');
      cpSync(backupDir, restoredDir, { recursive: true });
      const verify = await ledgerctl(restoredDir, 'audit', 'verify', '--json', '--quiet');
      expect(verify.code).toBe(0);
      const verdict = JSON.parse(verify.stdout) as { ok: boolean; headPosition: number; anchor?: { position: number } };
      expect(verdict.ok).toBe(true);
      expect(verdict.anchor?.position).toBeGreaterThan(0);
      const head = verdict.headPosition;
      const taken = acks.filter((ack) => ack.position <= head);
      const after = acks.filter((ack) => ack.position > head);
      expect(taken.length).toBeGreaterThanOrEqual(20);
      expect(after.length).toBeGreaterThanOrEqual(20);

      const restored = await startLedgerProcess(envFor(restoredDir));
      ledgers.push(restored);
      const readiness = (await (await fetch(`${restored.url}/readyz`)).json()) as { headPosition: number; checks: { processors: { detail?: string } } };
      expect(readiness.headPosition).toBe(head);
      // Read models copied before the log are never ahead of it: nothing was rebuilt.
      expect(readiness.checks.processors.detail).toBeUndefined();
      const devicesOf = async (host: string) => {
        const response = await fetch(`${restored.url}/api/v1/devices?hostname=${host}`, {
          headers: { 'x-auth-token': admin, 'x-ledger-min-position': String(head) },
        });
        if (response.status !== 200) throw new Error(`devices of ${host}: ${response.status} ${await response.text()}\n${restored.output()}`);
        return ((await response.json()) as { items: unknown[] }).items.length;
      };
      for (const ack of taken) expect(await devicesOf(ack.hostname)).toBeGreaterThan(0);
      for (const ack of after) expect(await devicesOf(ack.hostname)).toBe(0);
    } finally {
      writing = false;
      await writers.catch(() => undefined);
    }
  });

  it('refuses to write into a directory that is not empty', async () => {
    const dataDir = tempDir('ledger-refuse-');
    const occupied = tempDir('ledger-occupied-');
    cpSync(__filename, join(occupied, 'something'));
    const result = await ledgerctl(dataDir, 'backup', '--out', occupied);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not empty/);
  });
});
