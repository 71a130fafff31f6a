import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Command } from 'commander';
import { dataFiles } from '@ledger/config';
import { ensureProcessingTables, openSqliteSqlDatabase, releaseAllLeases } from '@ledger/processing';
import { CliError } from '../support/cli-error';
import { pgDumpSchema } from '../support/pg-dump';
import { cliConfig } from '../support/config';

interface BackupOptions {
  out: string;
}

/** Pages per backup step: all of them, so each file is copied from one read snapshot (see copySqlite). */
const WHOLE_FILE = 0x7fffffff;

/** The file `backup` writes the ledger's PostgreSQL schema to (docs/operations.md restores it with pg_restore). */
export const POSTGRES_DUMP_FILE = 'ledger.pgdump';

/**
 * `backup --out DIR`: a consistent copy of the ledger's state while it runs.
 * The order makes a restore of the copy sound without a rebuild: signed
 * head checkpoints first (they only sign heads already committed, so none
 * is past the copied log's head and `audit verify` passes on the copy),
 * then the read models (their checkpoints are only stored once their
 * events are visible, so none is past the copied log either), the event
 * log last. A PostgreSQL schema holding both is dumped once, in one
 * snapshot, which keeps the same promise.
 */
export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('copy the ledger while it runs: events, read models (SQLite files or a pg_dump), signed checkpoints, credentials')
    .requiredOption('--out <dir>', 'an absent or empty directory to write the copy to')
    .action(async (options: BackupOptions) => {
      const config = cliConfig();
      if (config.store === 'esdb') throw new CliError('backup copies SQLite and PostgreSQL stores; back EventStoreDB up with its own tools', 2);
      const out = resolve(options.out);
      if (existsSync(out) && readdirSync(out).length > 0) throw new CliError(`--out ${out} is not empty: a backup never overwrites another`, 2);
      const files = dataFiles(config);
      if (config.store === 'sqlite' && !existsSync(files.events)) throw new CliError(`no event store at ${files.events} (LEDGER_DATA_DIR is ${config.dataDir})`, 2);
      mkdirSync(out, { recursive: true });
      const copied: string[] = [];
      const copyIfPresent = (from: string) => {
        if (!existsSync(from)) return;
        cpSync(from, join(out, basename(from)), { recursive: true, preserveTimestamps: true });
        copied.push(basename(from));
      };
      const dumpPostgres = async () => {
        await pgDumpSchema({ connectionString: config.postgresUrl as string, schema: config.postgresSchema ?? 'public', file: join(out, POSTGRES_DUMP_FILE) });
        copied.push(POSTGRES_DUMP_FILE);
      };
      copyIfPresent(files.checkpoints);
      copyIfPresent(join(config.dataDir, 'credentials'));
      if (config.readModels === 'postgres') {
        await dumpPostgres();
      } else if (existsSync(files.readModels)) {
        copied.push(await copySqlite(files.readModels, out));
        await dropLeases(join(out, basename(files.readModels)));
      }
      if (config.store === 'sqlite') copied.push(await copySqlite(files.events, out));
      else if (config.readModels !== 'postgres') await dumpPostgres();
      process.stderr.write(`backed up ${copied.join(', ')} to ${out}\n`);
    });
}

/**
 * SQLite's online backup API from a read-only connection. Copied in one
 * step, the file comes from a single read snapshot: WAL readers do not block
 * the ledger's writers, and a concurrent write cannot restart the copy
 * (which it would between smaller steps, possibly forever under load).
 */
async function copySqlite(file: string, out: string): Promise<string> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    await db.backup(join(out, basename(file)), { progress: () => WHOLE_FILE });
  } finally {
    db.close();
  }
  return basename(file);
}

/** The copied read models carry the running ledger's leases; a ledger restored from them would stand by until they expire. */
async function dropLeases(file: string): Promise<void> {
  const db = await openSqliteSqlDatabase({ file });
  try {
    await ensureProcessingTables(db);
    await releaseAllLeases(db);
  } finally {
    await db.close();
  }
}
