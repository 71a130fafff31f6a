import type { Command } from 'commander';
import { openSqliteSqlDatabase, PointPositionFollower, rebuildBoundOf, rebuildProcessor } from '@ledger/processing';
import { REPLAYABLE_PROJECTIONS } from '@ledger/projections/catalog';
import { snapshotInventory } from '@ledger/projections/inventory';
import { CliError } from '../support/cli-error';
import { cliLogPoint } from '../support/cli-log-point';
import { openSource } from '../support/event-source';
import { formatInventory } from '../support/format-inventory';
import { Progress } from '../support/progress';
import { dumpReadModelTables } from '../support/read-model-tables';
import { sequentialReader } from '../support/sequential-reader';

interface ReplayOptions {
  asOf: string;
  projection: string;
  file?: string;
  json?: boolean;
  quiet?: boolean;
}

/**
 * `audit replay --as-of`: rebuilds one projection (the inventory unless
 * `--projection` names another) in memory from the log up to a position or
 * a time, and prints it: the read model as it was.
 */
export function registerAuditReplay(audit: Command): void {
  const names = [...REPLAYABLE_PROJECTIONS.keys()];
  audit
    .command('replay')
    .description('rebuild a read model (the inventory by default) as it was at a position or time, and print it')
    .requiredOption('--as-of <position|time>', 'a global position (e.g. 1200) or an ISO-8601 time (e.g. 2026-11-22T10:00:00Z)')
    .option('--projection <name>', `the read model to rebuild: ${names.join(', ')}`, 'inventory')
    .option('--file <export.jsonl>', 'replay an export instead of the live store')
    .option('--json', 'print the rebuilt read model as JSON')
    .option('--quiet', 'no progress on stderr')
    .action(async (options: ReplayOptions) => {
      const asOf = cliLogPoint(options.asOf, '--as-of');
      const projection = REPLAYABLE_PROJECTIONS.get(options.projection);
      if (!projection) throw new CliError(`--projection ${options.projection} is not one of ${names.join(', ')}`, 2);
      const source = await openSource(options.file);
      const db = await openSqliteSqlDatabase({ file: ':memory:' });
      const progress = new Progress(`replaying ${projection.name} from ${source.description}`, source.total, options.quiet);
      // The answer's label: the rebuild stops before the next event the projection reads, but a time means the last event of any kind at or before it.
      const asOfPosition = new PointPositionFollower(asOf);
      try {
        const result = await rebuildProcessor(sequentialReader(source, (events) => asOfPosition.follow(events)), db, projection, {
          ...rebuildBoundOf(asOf),
          onProgress: ({ position }) => progress.update(position),
        });
        progress.done(result.position);
        const header = { asOf: options.asOf, projection: projection.name, position: 'time' in asOf ? asOfPosition.position : result.position, eventsApplied: result.applied };
        if (projection.name === 'inventory' && !options.json) {
          process.stdout.write(formatInventory(header, await snapshotInventory(db)));
        } else if (projection.name === 'inventory') {
          process.stdout.write(`${JSON.stringify({ ...header, inventory: await snapshotInventory(db) }, null, 2)}\n`);
        } else {
          process.stdout.write(`${JSON.stringify({ ...header, tables: await dumpReadModelTables(db) }, null, options.json ? 2 : undefined)}\n`);
        }
      } finally {
        await db.close();
        await source.close();
      }
    });
}
