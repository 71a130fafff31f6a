import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { eventually } from '@ledger/processing/testing';
import { devicesServed, ledgerctlProcess, startReportWriters } from '../support/backup-writes';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';

const SECRET = 'backup-test-signing-key-0123456789abcdef';
const WRITERS = 4;

/**
 * Issue 11's backup/restore for SQLite, as docs/operations.md describes it:
 * `ledgerctl backup` while host reports keep coming in, the copy put into a
 * fresh data dir, a ledger started on it. The chain verifies, nothing had
 * to be rebuilt, and exactly the reports acknowledged up to the copy's head
 * are served. (PostgreSQL: postgres-backup-restore.e2e-spec.ts.)
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
    const backupDir = join(tempDir('ledger-backup-'), 'copy');
    const writers = startReportWriters(live.url, admin, WRITERS);
    try {
      // A signed head checkpoint exists (every second) and reports are still coming in.
      await eventually(() => existsSync(join(dataDir, 'checkpoints.jsonl')), 10_000);
      await eventually(() => writers.acks.length >= 20, 10_000);
      const backup = await ledgerctlProcess(envFor(dataDir), 'backup', '--out', backupDir);
      expect(backup).toMatchObject({ code: 0 });
      expect(backup.stderr).toMatch(/backed up checkpoints\.jsonl, credentials, read-models\.sqlite, events\.sqlite/);
      const atBackup = writers.acks.length;
      await eventually(() => writers.acks.length >= atBackup + 20, 10_000);
    } finally {
      await writers.stop();
    }
    await live.kill('SIGTERM');

    const restoredDir = tempDir('ledger-restored-');
    cpSync(backupDir, restoredDir, { recursive: true });
    const verify = await ledgerctlProcess(envFor(restoredDir), 'audit', 'verify', '--json', '--quiet');
    expect(verify.code).toBe(0);
    const verdict = JSON.parse(verify.stdout) as { ok: boolean; headPosition: number; anchor?: { position: number } };
    expect(verdict.ok).toBe(true);
    expect(verdict.anchor?.position).toBeGreaterThan(0);
    const head = verdict.headPosition;
    const taken = writers.acks.filter((ack) => ack.position <= head);
    const after = writers.acks.filter((ack) => ack.position > head);
    expect(taken.length).toBeGreaterThanOrEqual(20);
    expect(after.length).toBeGreaterThanOrEqual(20);

    const restored = await startLedgerProcess(envFor(restoredDir));
    ledgers.push(restored);
    const readiness = (await (await fetch(`${restored.url}/readyz`)).json()) as { headPosition: number; checks: { processors: { detail?: string } } };
    expect(readiness.headPosition).toBe(head);
    // Read models copied before the log are never ahead of it: nothing was rebuilt.
    expect(readiness.checks.processors.detail).toBeUndefined();
    for (const ack of taken) expect(await devicesServed(restored.url, admin, ack.hostname, head)).toBeGreaterThan(0);
    for (const ack of after) expect(await devicesServed(restored.url, admin, ack.hostname, head)).toBe(0);
  });

  it('refuses to write into a directory that is not empty', async () => {
    const dataDir = tempDir('ledger-refuse-');
    const occupied = tempDir('ledger-occupied-');
    cpSync(__filename, join(occupied, 'something'));
    const result = await ledgerctlProcess(envFor(dataDir), 'backup', '--out', occupied);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not empty/);
  });
});
