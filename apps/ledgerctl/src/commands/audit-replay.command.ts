import type { Command } from 'commander';
import { dataFiles, eventStoreOptions } from '@ledger/config';
import { openEventStore } from '@ledger/eventstore';
import {
  AsOfBeyondHeadError,
  AsOfRebuilds,
  type LogPoint,
  openSqliteSqlDatabase,
  PointPositionFollower,
  positionOfPoint,
  type Processor,
  ReadModelSnapshots,
  rebuildBoundOf,
  rebuildProcessor,
  SnapshotFiles,
  type SqlDatabase,
} from '@ledger/processing';
import { REPLAYABLE_PROJECTIONS } from '@ledger/projections/catalog';
import { snapshotInventory } from '@ledger/projections/inventory';
import { CliError } from '../support/cli-error';
import { cliLogPoint } from '../support/cli-log-point';
import { cliConfig } from '../support/config';
import { openFileSource } from '../support/event-source';
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

interface ReplayHeader {
  readonly asOf: string;
  readonly projection: string;
  readonly position: number;
  readonly eventsApplied?: number;
}

/**
 * `audit replay --as-of`: one projection (the inventory unless
 * `--projection` names another) as it was at a position or a time, printed.
 * On the live store it is the as-of read the ledger serves (AsOfRebuilds):
 * from the data dir's nearest verified snapshot at or before the point,
 * replaying only the rest. An export has no snapshots: it is replayed from
 * its first line.
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
      if (options.file) await replayExport(options.file, projection, asOf, options);
      else await replayLive(projection, asOf, options);
    });
}

async function replayLive(projection: Processor, asOf: LogPoint, options: ReplayOptions): Promise<void> {
  const config = cliConfig();
  const store = await openEventStore(eventStoreOptions(config));
  const snapshots = new ReadModelSnapshots(store, new SnapshotFiles(dataFiles(config).snapshots), (refused) =>
    process.stderr.write(`snapshot ${refused.file} refused (${refused.reason}): ${refused.detail}\n`),
  );
  const rebuilds = new AsOfRebuilds(store, 1, snapshots);
  try {
    const position = await positionOfPoint(store, asOf);
    const { answer } = await rebuilds
      .read(projection, { position }, (db) => render(db, { asOf: options.asOf, projection: projection.name, position }, options))
      .catch((error: unknown) => {
        // The API's 400: bad input, as a malformed point is.
        throw error instanceof AsOfBeyondHeadError ? new CliError(`${error.code}: ${error.message}`, 2) : error;
      });
    process.stdout.write(answer);
  } finally {
    await rebuilds.close();
    await store.close();
  }
}

async function replayExport(file: string, projection: Processor, asOf: LogPoint, options: ReplayOptions): Promise<void> {
  const source = openFileSource(file);
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
    process.stdout.write(await render(db, header, options));
  } finally {
    await db.close();
    await source.close();
  }
}

/** The read model printed: the inventory as an outline (or JSON), any other as JSON, one array of rows per table. */
async function render(db: SqlDatabase, header: ReplayHeader, options: ReplayOptions): Promise<string> {
  if (header.projection === 'inventory') {
    const inventory = await snapshotInventory(db);
    return options.json ? `${JSON.stringify({ ...header, inventory }, null, 2)}\n` : formatInventory(header, inventory);
  }
  return `${JSON.stringify({ ...header, tables: await dumpReadModelTables(db) }, null, options.json ? 2 : undefined)}\n`;
}
