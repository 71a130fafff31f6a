import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Command } from 'commander';
import { dataFiles } from '@ledger/config';
import { ensureProcessingTables, openSqliteSqlDatabase, releaseAllLeases } from '@ledger/processing';
import { CliError } from '../support/cli-error';
import { cliConfig } from '../support/config';

interface BackupOptions {
  out: string;
}

/** Pages per backup step: all of them, so each file is copied from one read snapshot (see copySqlite). */
const WHOLE_FILE = 0x7fffffff;

/**
 * `backup --out DIR`: a consistent copy of a SQLite data dir while the
 * ledger runs. The order makes a restore of the copy sound without a
 * rebuild: signed head checkpoints first (they only sign heads already
 * committed, so none is past the copied log's head and `audit verify`
 * passes on the copy), then the read models (their checkpoints are only
 * stored once their events are visible, so none is past the copied log
 * either), the event log last.
 */
export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('copy a SQLite data dir while the ledger runs: events, read models, signed checkpoints, credentials')
    .requiredOption('--out <dir>', 'an absent or empty directory to write the copy to')
    .action(async (options: BackupOptions) => {
      const config = cliConfig();
      if (config.store !== 'sqlite' || config.readModels !== 'sqlite') {
        throw new CliError(`backup copies SQLite data dirs; this ledger uses ${config.store} (read models ${config.readModels}): see docs/operations.md for pg_dump`, 2);
      }
      const out = resolve(options.out);
      if (existsSync(out) && readdirSync(out).length > 0) throw new CliError(`--out ${out} is not empty: a backup never overwrites another`, 2);
      const files = dataFiles(config);
      if (!existsSync(files.events)) throw new CliError(`no event store at ${files.events} (LEDGER_DATA_DIR is ${config.dataDir})`, 2);
      mkdirSync(out, { recursive: true });
      const copied: string[] = [];
      const copyIfPresent = (from: string) => {
        if (!existsSync(from)) return;
        cpSync(from, join(out, basename(from)), { recursive: true, preserveTimestamps: true });
        copied.push(basename(from));
      };
      copyIfPresent(files.checkpoints);
      copyIfPresent(join(config.dataDir, 'credentials'));
      if (existsSync(files.readModels)) {
        copied.push(await copySqlite(files.readModels, out));
        await dropLeases(join(out, basename(files.readModels)));
      }
      copied.push(await copySqlite(files.events, out));
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
