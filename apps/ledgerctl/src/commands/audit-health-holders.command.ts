import type { Command } from 'commander';
import { type HealthTenancy, UsageQueries } from '@ledger/projections/device-history';
import { cliLogPoint } from '../support/cli-log-point';
import { deviceHistoryOfExport } from '../support/device-history-export';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';

type HealthHoldersOptions = LedgerApiOptions & { from?: string; to?: string; cause?: string; causeKind?: string; device?: string; file?: string; json?: boolean; quiet?: boolean };

/**
 * `audit health-holders`: which projects held devices that reported a
 * health cause (or anything but ok) in [from, to). Live it asks the ledger
 * (GET /api/v1/audit/health-holders); with `--file` it rebuilds the
 * device-history read model from an export and runs the same query.
 */
export function registerAuditHealthHolders(audit: Command): void {
  withLedgerApiOptions(
    audit
      .command('health-holders')
      .description('which projects held devices that reported a health cause (or any unhealthy report) in [from, to)')
      .option('--from <position|time>', 'reports at or after this point')
      .option('--to <position|time>', 'reports before this point')
      .option('--cause <reason>', 'the reported reason, matched exactly (default: any report that is not ok)')
      .option('--cause-kind <kind>', 'only reports of this cause kind (xid, ecc, row-remap, aer, unresponsive, other)')
      .option('--device <uuid>', 'only this device: who held it when it failed')
      .option('--file <export.jsonl>', 'answer from an export instead of the running ledger')
      .option('--json', 'print JSON')
      .option('--quiet', 'no progress on stderr'),
  ).action(async (options: HealthHoldersOptions) => {
    const reports = options.file ? await fromExport(options.file, options) : await fromLedger(options);
    const projects = [...new Set(reports.map((report) => report.projectId))].sort();
    process.stdout.write(options.json ? `${JSON.stringify({ projects, reports })}\n` : describe(reports));
  });
}

async function fromLedger(options: HealthHoldersOptions): Promise<HealthTenancy[]> {
  const query = new URLSearchParams();
  for (const name of ['from', 'to', 'cause', 'causeKind', 'device'] as const) if (options[name] !== undefined) query.set(name, options[name]!);
  const path = `/api/v1/audit/health-holders${query.size > 0 ? `?${query}` : ''}`;
  return (await LedgerApiClient.fromOptions(options).request<{ reports: HealthTenancy[] }>('GET', path)).reports;
}

async function fromExport(file: string, options: HealthHoldersOptions): Promise<HealthTenancy[]> {
  const question = {
    from: options.from === undefined ? undefined : cliLogPoint(options.from, '--from'),
    to: options.to === undefined ? undefined : cliLogPoint(options.to, '--to'),
    cause: options.cause,
    causeKind: options.causeKind,
    device: options.device,
  };
  const { db } = await deviceHistoryOfExport(file, options.quiet);
  try {
    return await new UsageQueries(db).healthTenancies(question, { all: true });
  } finally {
    await db.close();
  }
}

function describe(reports: readonly HealthTenancy[]): string {
  if (reports.length === 0) return 'no held device reported that in the range\n';
  const rows = reports.map((r) => [r.recordedAt, cell(r.projectId), r.deviceUuid, r.arqUuid, r.health, cell(r.reason), r.effect, cell(r.policyVersion)]);
  return formatTable(['REPORTED', 'PROJECT', 'DEVICE', 'REQUEST', 'HEALTH', 'CAUSE', 'EFFECT', 'POLICY'], rows);
}
