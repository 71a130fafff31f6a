import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { CliError } from './cli-error';

export interface PgDumpTarget {
  readonly connectionString: string;
  /** The ledger's schema (LEDGER_POSTGRES_SCHEMA, default public). */
  readonly schema: string;
  readonly file: string;
}

/**
 * `pg_dump` of the ledger's schema in the custom format, for `pg_restore`.
 * One dump is one snapshot, so the event log and the read models in it
 * agree with each other. The processors' leases are left out (their rows,
 * not the table): no process holds them in a restored database, and a
 * ledger started on it would otherwise stand by until they expire.
 */
export async function pgDumpSchema(target: PgDumpTarget): Promise<void> {
  const args = [
    '--format=custom',
    `--schema=${target.schema}`,
    `--exclude-table-data=${target.schema}.processor_leases`,
    `--file=${target.file}`,
    `--dbname=${target.connectionString}`,
  ];
  const child = spawn('pg_dump', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const failed = once(child, 'error').then(([error]) => error as NodeJS.ErrnoException);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const outcome = await Promise.race([failed, exited]);
  if (outcome instanceof Error) {
    const why = outcome.code === 'ENOENT' ? 'pg_dump is not on PATH (install the PostgreSQL client of the server\'s major version or newer)' : outcome.message;
    throw new CliError(`backup of PostgreSQL schema ${target.schema}: ${why}`, 1);
  }
  if (outcome !== 0) throw new CliError(`pg_dump of schema ${target.schema} failed (exit ${outcome}): ${stderr.trim()}`, 1);
}
