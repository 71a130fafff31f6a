import type { Command } from 'commander';
import { type LogPoint, openSqliteSqlDatabase, PointPositionFollower, rebuildProcessor } from '@ledger/processing';
import { DeviceHistoryQueries, deviceHistoryProjection, type TenancyView } from '@ledger/projections/device-history';
import { cliLogPoint } from '../support/cli-log-point';
import { openFileSource } from '../support/event-source';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { Progress } from '../support/progress';
import { sequentialReader } from '../support/sequential-reader';
import { cell, formatTable } from '../support/text-table';

type WhoHeldOptions = LedgerApiOptions & { from?: string; to?: string; file?: string; json?: boolean; quiet?: boolean };

/**
 * `audit who-held DEVICE`: the device's tenancies in a range. Live, it asks
 * the running ledger (GET /api/v1/devices/{id}/tenancy, an index lookup);
 * on an export it rebuilds the device-history projection in memory first,
 * a pass over the whole file (docs/audit.md gives the cost).
 */
export function registerAuditWhoHeld(audit: Command): void {
  withLedgerApiOptions(
    audit
      .command('who-held')
      .description('who held a device (attach handle, region, request, instance, project, profile, bitstream) between two points')
      .argument('<device>', 'the device uuid')
      .option('--from <position|time>', 'tenancies not yet ended at this point')
      .option('--to <position|time>', 'tenancies begun by this point')
      .option('--file <export.jsonl>', 'answer from an export instead of the running ledger')
      .option('--json', 'print JSON')
      .option('--quiet', 'no progress on stderr'),
  ).action(async (device: string, options: WhoHeldOptions) => {
    const range: TenancyPoints = {
      from: options.from === undefined ? undefined : cliLogPoint(options.from, '--from'),
      to: options.to === undefined ? undefined : cliLogPoint(options.to, '--to'),
    };
    const tenancies = options.file ? await fromExport(options.file, device, range, options.quiet) : await fromLedger(device, options);
    process.stdout.write(options.json ? `${JSON.stringify({ deviceUuid: device.toLowerCase(), tenancies })}\n` : describe(device, tenancies));
  });
}

async function fromLedger(device: string, options: WhoHeldOptions): Promise<TenancyView[]> {
  const query = new URLSearchParams();
  if (options.from) query.set('from', options.from);
  if (options.to) query.set('to', options.to);
  const path = `/api/v1/devices/${encodeURIComponent(device)}/tenancy${query.size > 0 ? `?${query}` : ''}`;
  return (await LedgerApiClient.fromOptions(options).request<{ tenancies: TenancyView[] }>('GET', path)).tenancies;
}

/** `--from` and `--to` as given: the ledger resolves times live, `fromExport` while it reads the file. */
interface TenancyPoints {
  readonly from?: LogPoint;
  readonly to?: LogPoint;
}

async function fromExport(file: string, device: string, points: TenancyPoints, quiet?: boolean): Promise<TenancyView[]> {
  const source = openFileSource(file);
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  const progress = new Progress(`reading ${file}`, undefined, quiet);
  // A time means the last event recorded at or before it, as on the live route: found while the file is read.
  const from = points.from && new PointPositionFollower(points.from);
  const to = points.to && new PointPositionFollower(points.to);
  const reader = sequentialReader(source, (events) => {
    from?.follow(events);
    to?.follow(events);
  });
  try {
    const result = await rebuildProcessor(reader, db, deviceHistoryProjection, { onProgress: ({ position }) => progress.update(position) });
    progress.done(result.position);
    return await new DeviceHistoryQueries(db).tenancies(device, { from: from?.position, to: to?.position }, { all: true });
  } finally {
    await db.close();
    await source.close();
  }
}

function describe(device: string, tenancies: readonly TenancyView[]): string {
  if (tenancies.length === 0) return `nobody held ${device.toLowerCase()} in that range\n`;
  const rows = tenancies.map((t) => [
    t.from.time, t.to?.time ?? 'now', cell(t.projectId), t.arqUuid, cell(t.instanceUuid), t.attachHandleUuid, cell(t.region), cell(t.deviceProfile?.name), cell(t.bitstreamId),
  ]);
  return formatTable(['FROM', 'TO', 'PROJECT', 'REQUEST', 'INSTANCE', 'ATTACH HANDLE', 'REGION', 'PROFILE', 'BITSTREAM'], rows);
}
