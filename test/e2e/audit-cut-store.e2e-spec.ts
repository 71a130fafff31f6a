import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { eventually } from '@ledger/processing/testing';
import { ledgerctlProcess } from '../support/backup-writes';
import { hostReportBody } from '../support/fleet';
import { type LedgerProcess, startLedgerProcess } from '../support/ledger-process';

const SECRET = 'cut-store-test-signing-key-0123456789abcdef';

interface Readiness {
  ready: boolean;
  checks: Record<string, { ok: boolean; code?: string; detail?: string; signedHead?: number; storeHead?: number }>;
}

/**
 * A store cut below the head the ledger itself signed (a backup's log put
 * back beside the newer checkpoints.jsonl): export refuses, carries the
 * later checkpoints when told to, and signs nothing below them; a ledger on
 * it is not ready and signs nothing until an operator accepts the rollback
 * with `ledgerctl audit accept-rollback`, which is recorded, and which
 * verify then reads (live and in the export) instead of reporting a cut.
 */
describe('a store cut below its signed head', () => {
  const dirs: string[] = [];
  let ledger: LedgerProcess | undefined;
  let dataDir: string;
  let env: Record<string, string>;
  let storeHead: number;
  let signedHead: number;
  const admin = new TokenCodec(SECRET).issue({ user: 'admin', project: 'admin', roles: ['admin'] });
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const checkpointLines = () => readFileSync(join(dataDir, 'checkpoints.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const checkpointPositions = (): number[] => checkpointLines().flatMap((line) => line.position ?? []);
  const readiness = async (url: string) => (await (await fetch(`${url}/readyz`)).json()) as Readiness;

  beforeAll(async () => {
    dataDir = tempDir('ledger-cut-');
    env = { LEDGER_DATA_DIR: dataDir, LEDGER_AUTH_SECRET: SECRET, LEDGER_CHECKPOINT_SECONDS: '1' };
    const live = await startLedgerProcess(env);
    const report = async (generation: number) => {
      const response = await fetch(`${live.url}/api/v1/hosts/compute-1/report`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-auth-token': admin },
        body: JSON.stringify(hostReportBody(1, generation)),
      });
      expect(response.status).toBe(200);
    };
    await report(0);
    const backupDir = join(tempDir('ledger-cut-backup-'), 'copy');
    expect((await ledgerctlProcess(env, 'backup', '--out', backupDir)).code).toBe(0);
    await report(1);
    await live.kill('SIGTERM');
    signedHead = Math.max(...checkpointPositions());
    // The operator puts the backup's log back, and keeps the newer checkpoints.jsonl.
    for (const file of ['events.sqlite', 'read-models.sqlite']) {
      for (const suffix of ['-wal', '-shm']) rmSync(join(dataDir, file + suffix), { force: true });
      cpSync(join(backupDir, file), join(dataDir, file));
    }
    const verdict = await ledgerctlProcess(env, 'audit', 'verify', '--json', '--quiet');
    storeHead = JSON.parse(verdict.stdout).headPosition;
    expect(storeHead).toBeLessThan(signedHead);
  });
  afterAll(async () => {
    await ledger?.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('audit export refuses, naming the signed head and the store head', async () => {
    const out = join(dataDir, 'refused.jsonl');
    const refused = await ledgerctlProcess(env, 'audit', 'export', '--out', out, '--quiet');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('AUDIT.LOG_CUT_BELOW_SIGNED_HEAD');
    expect(refused.stderr).toContain(`store's head is position ${storeHead}, below the checkpoint signed for position ${signedHead}`);
  });

  it('audit export --allow-cut carries the later checkpoints and signs none below them; verify names the missing positions', async () => {
    const out = join(dataDir, 'cut.jsonl');
    expect((await ledgerctlProcess(env, 'audit', 'export', '--out', out, '--allow-cut', '--quiet')).code).toBe(0);
    const header = readFileSync(out, 'utf8').split('\n').filter((line) => line.startsWith('{"checkpoint"')).map((line) => JSON.parse(line).checkpoint.position);
    expect(Math.max(...header)).toBe(signedHead);
    expect(checkpointPositions()).toEqual(expect.arrayContaining(header));
    const verify = await ledgerctlProcess(env, 'audit', 'verify', '--file', out, '--json', '--quiet');
    expect(verify.code).toBe(1);
    expect(JSON.parse(verify.stdout).firstBreak).toMatchObject({ reason: 'truncated', position: storeHead + 1 });
    expect(JSON.parse(verify.stdout).firstBreak.detail).toContain(`positions ${storeHead + 1}–${signedHead} are missing`);
  });

  it('a ledger on it is not ready and signs nothing below the signed head, until the rollback is accepted and recorded', async () => {
    const before = checkpointLines().length;
    ledger = await startLedgerProcess(env, { upPath: '/healthz' });
    const cut = await readiness(ledger.url);
    expect(cut.ready).toBe(false);
    expect(cut.checks.signedHead).toMatchObject({ ok: false, code: 'AUDIT.LOG_CUT_BELOW_SIGNED_HEAD', signedHead, storeHead });
    await ledger.kill('SIGTERM');
    expect(checkpointLines()).toHaveLength(before);

    ledger = await startLedgerProcess(env, { upPath: '/healthz' });
    const wrong = await ledgerctlProcess(env, 'audit', 'accept-rollback', '--to', String(storeHead - 1), '--reason', 'restored the backup');
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining(`the store's head is ${storeHead}`)]);
    const accepted = await ledgerctlProcess(env, 'audit', 'accept-rollback', '--to', String(storeHead), '--reason', 'restored the backup', '--by', 'ops-alice');
    expect(accepted.code).toBe(0);
    expect(checkpointLines().at(-1).rollbackAccepted).toMatchObject({ to: storeHead, signedHead, by: 'ops-alice', reason: 'restored the backup', at: expect.any(String) });
    const url = ledger.url;
    await eventually(async () => (await readiness(url)).ready);
    expect((await readiness(url)).checks.signedHead.detail).toContain('accepted by ops-alice');
    await ledger.kill('SIGTERM');
    // The head has not passed the signed head: still nothing signed, only the acceptance recorded.
    expect(checkpointLines().slice(before).filter((line) => 'position' in line)).toEqual([]);
    expect((await ledgerctlProcess(env, 'audit', 'export', '--out', join(dataDir, 'accepted.jsonl'), '--quiet')).code).toBe(0);
  });

  it('audit verify reads the acceptance: the live store and its export verify, naming the rollback instead of a cut', async () => {
    const rollback = { to: storeHead, signedHead, by: 'ops-alice', reason: 'restored the backup' };
    const live = await ledgerctlProcess(env, 'audit', 'verify', '--json', '--quiet');
    expect([live.code, JSON.parse(live.stdout)]).toEqual([0, expect.objectContaining({ ok: true, headPosition: storeHead, rollbacks: [expect.objectContaining(rollback)] })]);
    expect((await ledgerctlProcess(env, 'audit', 'verify', '--quiet')).stdout).toContain(`rollback accepted by ops-alice`);
    const out = join(dataDir, 'accepted.jsonl');
    const header = readFileSync(out, 'utf8').split('\n').filter((line) => line.startsWith('{"rollbackAccepted"'));
    expect(header.map((line) => JSON.parse(line).rollbackAccepted)).toEqual([expect.objectContaining(rollback)]);
    const exported = await ledgerctlProcess(env, 'audit', 'verify', '--file', out, '--json', '--quiet');
    expect([exported.code, JSON.parse(exported.stdout)]).toEqual([0, expect.objectContaining({ ok: true, headPosition: storeHead, rollbacks: [expect.objectContaining(rollback)] })]);
  });
});
