import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { withPostgresClient } from '../support/postgres-client';
import { TokenCodec } from '@ledger/auth';
import { eventually } from '@ledger/processing/testing';
import { devicesServed, runProcess, startReportWriters, type ProcessResult } from '../support/backup-writes';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';
import { shellBlocks } from '../support/markdown-tour';
import { describeWithService, postgresUnavailable, postgresUrl } from '../support/services';

const ROOT = join(__dirname, '..', '..');
const SECRET = 'pg-backup-test-signing-key-0123456789abcdef';
const WRITERS = 4;
const GUIDE = join(ROOT, 'docs', 'operations.md');

/** The shell blocks of docs/operations.md that name this suite as the one that runs them: the backup, then the restore. */
function documentedProcedure(): { backup: string; restore: string } {
  const blocks = shellBlocks(readFileSync(GUIDE, 'utf8')).filter((block) => block.notRunReason?.includes(basename(__filename)));
  if (blocks.length !== 2) throw new Error(`docs/operations.md should hold 2 blocks run by ${basename(__filename)}, found ${blocks.length}`);
  return { backup: blocks[0].code, restore: blocks[1].code };
}

/**
 * Runs a block of the docs as written, by bash, in `site` (the directory
 * holding `data` and `backup`), stopping at the first failing command. The
 * one change: `npm run -s ledgerctl --` starts this tree's compiled CLI
 * directly, because npm would run it in the package's directory, not `site`.
 */
function runDocumented(code: string, site: string, env: Record<string, string>): Promise<ProcessResult> {
  const script = code.replaceAll('npm run -s ledgerctl --', `"${process.execPath}" "${join(ROOT, 'scripts', 'run.js')}" ledgerctl`);
  // The docs' commands find the data dir (./data) and the schema (public) by their defaults, as an operator's would.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LEDGER_')));
  return runProcess('bash', ['-euo', 'pipefail', '-c', script], { cwd: site, env: { ...inherited, ...env } });
}


/** A database of the test PostgreSQL, each test its own, so the ledger uses the default schema (public) as the docs assume. */
function databaseUrl(name: string): string {
  const url = new URL(postgresUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

interface Readiness {
  readonly headPosition: number;
  readonly checks: { readonly processors: { readonly detail?: string } };
}

/**
 * Issue 11's backup/restore for PostgreSQL, run as docs/operations.md
 * writes it: `ledgerctl backup` (pg_dump of the ledger's schema, the signed
 * checkpoints and credentials) while host reports keep coming in, then the
 * documented restore (schema renamed aside, pg_restore, audit verify), then
 * a ledger on the restored state. In the default layout (events and read
 * models in one schema) nothing is rebuilt; with read models in SQLite kept
 * newer than the restored log, the processors past its head are rebuilt
 * and /readyz says so. Either way exactly the reports acknowledged up to
 * the restored head are served, and writes after the restore are read back
 * (a processor left past the head would skip them).
 */
describeWithService('PostgreSQL', postgresUnavailable())('backup and restore of a PostgreSQL ledger, as docs/operations.md says', () => {
  const dirs: string[] = [];
  const databases: string[] = [];
  const ledgers: LedgerProcess[] = [];
  const admin = new TokenCodec(SECRET).issue({ user: 'admin', project: 'admin', roles: ['admin'] });
  afterAll(async () => {
    for (const ledger of ledgers) await ledger.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await withPostgresClient(postgresUrl(), async (client) => {
      for (const name of databases) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  });

  const layouts = [
    { layout: 'events and read models in PostgreSQL', readModels: 'postgres', copied: 'checkpoints.jsonl, credentials, ledger.pgdump', keepNewerReadModels: false },
    { layout: 'read models in SQLite, kept newer than the restored log', readModels: 'sqlite', copied: 'checkpoints.jsonl, credentials, read-models.sqlite, ledger.pgdump', keepNewerReadModels: true },
  ] as const;

  it.each(layouts)('$layout', async ({ readModels, copied, keepNewerReadModels }) => {
    const procedure = documentedProcedure();
    const database = `ledger_backup_${process.pid}_${readModels}`;
    await withPostgresClient(postgresUrl(), (client) => client.query(`CREATE DATABASE ${database}`));
    databases.push(database);
    const site = mkdtempSync(join(tmpdir(), 'ledger-pg-backup-'));
    dirs.push(site);
    const env = { LEDGER_STORE: 'postgres', LEDGER_READ_MODELS: readModels, LEDGER_POSTGRES_URL: databaseUrl(database), LEDGER_AUTH_SECRET: SECRET };
    const ledgerEnv = { ...env, LEDGER_DATA_DIR: join(site, 'data'), LEDGER_CHECKPOINT_SECONDS: '1' };

    const live = await startLedgerProcess(ledgerEnv);
    ledgers.push(live);
    const writers = startReportWriters(live.url, admin, WRITERS);
    let backupMs: number;
    try {
      await eventually(() => existsSync(join(site, 'data', 'checkpoints.jsonl')), 10_000);
      await eventually(() => writers.acks.length >= 20, 10_000);
      const startedAt = Date.now();
      const backup = await runDocumented(procedure.backup, site, env);
      backupMs = Date.now() - startedAt;
      expect(backup).toMatchObject({ code: 0 });
      expect(backup.stderr).toContain(`backed up ${copied} to ${join(site, 'backup', '2026-11-25')}`);
      const atBackup = writers.acks.length;
      await eventually(() => writers.acks.length >= atBackup + 20, 10_000);
    } finally {
      await writers.stop();
    }
    await live.kill('SIGTERM');

    const startedAt = Date.now();
    const restore = await runDocumented(procedure.restore, site, env);
    const restoreMs = Date.now() - startedAt;
    expect(restore).toMatchObject({ code: 0 });
    expect(restore.stdout).toMatch(/chain intact: \d+ events/);
    expect(readdirSync(join(site, 'data')).sort()).toEqual(copied.split(', ').filter((file) => file !== 'ledger.pgdump').sort());
    if (keepNewerReadModels) {
      for (const file of readdirSync(join(site, 'data.before-restore')).filter((name) => name.startsWith('read-models.sqlite'))) {
        cpSync(join(site, 'data.before-restore', file), join(site, 'data', file));
      }
    }
    process.stderr.write(`postgres backup (${readModels} read models): ledgerctl backup ${backupMs} ms, documented restore ${restoreMs} ms\n`);

    const restored = await startLedgerProcess(ledgerEnv);
    ledgers.push(restored);
    const readiness = (await (await fetch(`${restored.url}/readyz`)).json()) as Readiness;
    const head = readiness.headPosition;
    if (keepNewerReadModels) expect(readiness.checks.processors.detail).toMatch(/past the log head/);
    else expect(readiness.checks.processors.detail).toBeUndefined();
    const taken = writers.acks.filter((ack) => ack.position <= head);
    const after = writers.acks.filter((ack) => ack.position > head);
    expect(taken.length).toBeGreaterThanOrEqual(20);
    expect(after.length).toBeGreaterThanOrEqual(20);
    for (const ack of taken) expect(await devicesServed(restored.url, admin, ack.hostname, head)).toBeGreaterThan(0);
    for (const ack of after) expect(await devicesServed(restored.url, admin, ack.hostname, head)).toBe(0);

    // New events take positions the newer read models had applied: served all the same.
    const created = await fetch(`${restored.url}/v2/device_profiles`, {
      method: 'POST',
      headers: { 'x-auth-token': admin, 'content-type': 'application/json' },
      body: JSON.stringify([{ name: 'after-restore', groups: [{ 'resources:FPGA': '1' }] }]),
    });
    expect(created.status).toBe(201);
    const { uuid } = (await created.json()) as { uuid: string };
    expect((await fetch(`${restored.url}/v2/device_profiles/${uuid}`, { headers: { 'x-auth-token': admin } })).status).toBe(200);

    // The schema as it was before the restore is kept, as evidence, with every acknowledged report in it.
    const evidence = await withPostgresClient(databaseUrl(database), (client) => client.query<{ head: string }>('SELECT max(position) AS head FROM public_before_restore.ledger_events'));
    expect(Number(evidence.rows[0].head)).toBeGreaterThanOrEqual(Math.max(...writers.acks.map((ack) => ack.position)));
  });
});
