import type { Command } from 'commander';
import { openSqliteSqlDatabase, rebuildProcessor } from '@ledger/processing';
import { inventoryProjection, snapshotInventory } from '@ledger/projections/inventory';
import { CliError } from '../support/cli-error';
import { openSource } from '../support/event-source';
import { formatInventory } from '../support/format-inventory';
import { Progress } from '../support/progress';
import { sequentialReader } from '../support/sequential-reader';

/** `--as-of`: a global position (digits) or an ISO-8601 time. */
export function parseAsOf(value: string): { untilPosition: number } | { untilTime: string } {
  if (/^\d+$/.test(value)) return { untilPosition: Number(value) };
  const time = new Date(value);
  if (Number.isNaN(time.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new CliError(`--as-of ${value} is neither a position (digits) nor an ISO-8601 time (2026-11-22T10:00:00Z)`, 2);
  }
  return { untilTime: time.toISOString() };
}

/**
 * `audit replay --as-of`: rebuilds the inventory projection in memory from
 * the log up to a position or a time, and prints it: the inventory as it was.
 */
export function registerAuditReplay(audit: Command): void {
  audit
    .command('replay')
    .description('rebuild the inventory as it was at a position or time, and print it')
    .requiredOption('--as-of <position|time>', 'a global position (e.g. 1200) or an ISO-8601 time (e.g. 2026-11-22T10:00:00Z)')
    .option('--file <export.jsonl>', 'replay an export instead of the live store')
    .option('--json', 'print the rebuilt read model as JSON')
    .option('--quiet', 'no progress on stderr')
    .action(async (options: { asOf: string; file?: string; json?: boolean; quiet?: boolean }) => {
      const asOf = parseAsOf(options.asOf);
      const source = await openSource(options.file);
      const db = await openSqliteSqlDatabase({ file: ':memory:' });
      const progress = new Progress(`replaying ${source.description}`, source.total, options.quiet);
      try {
        const result = await rebuildProcessor(sequentialReader(source), db, inventoryProjection, {
          ...asOf,
          onProgress: ({ position }) => progress.update(position),
        });
        progress.done(result.position);
        const snapshot = await snapshotInventory(db);
        const header = { asOf: options.asOf, position: result.position, eventsApplied: result.applied };
        process.stdout.write(options.json ? `${JSON.stringify({ ...header, inventory: snapshot }, null, 2)}\n` : formatInventory(header, snapshot));
      } finally {
        await db.close();
        await source.close();
      }
    });
}
