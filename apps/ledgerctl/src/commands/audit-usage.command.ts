import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { canonicalJson, ValidationError } from '@ledger/kernel';
import {
  assertUsagePeriodOver,
  computeUsageReport,
  parseUsageGroupBy,
  type PositionTimes,
  resolveUsageWindow,
  type UsageReport,
  usageReportSignatureValid,
  usageReportText,
  type UsageWindow,
} from '@ledger/projections/device-history';
import { ledgerCheckpointKeys, verifyingKey } from '../support/checkpoint-sources';
import { CliError } from '../support/cli-error';
import { cliLogPoint } from '../support/cli-log-point';
import { cliConfig } from '../support/config';
import { deviceHistoryOfExport } from '../support/device-history-export';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';

const FORMATS = ['table', 'csv', 'json'] as const;

type UsageOptions = LedgerApiOptions & {
  from?: string;
  to?: string;
  groupBy?: string;
  format: string;
  file?: string;
  project?: string;
  report?: string;
  publicKey?: string;
  quiet?: boolean;
};

/**
 * `audit usage`: seconds held and GPU memory GiB-seconds per project,
 * resource class or device in [from, to). Live, the ledger computes and
 * signs the report (GET /api/v1/usage); with `--file` it is recomputed from
 * an export by the same code, and signed with the data dir's key when this
 * machine has it, so both give the same bytes. `--report` checks a report
 * someone was given against the export: same body, valid signature.
 */
export function registerAuditUsage(audit: Command): void {
  withLedgerApiOptions(
    audit
      .command('usage')
      .description('seconds held and GPU memory GiB-seconds per project, resource class or device in [from, to), signed')
      .option('--from <position|time>', 'start of the period (included)')
      .option('--to <position|time>', 'end of the period (excluded)')
      .option('--group-by <project|resourceClass|device>', 'one row per project (default), resource class or device')
      .option('--format <table|csv|json>', 'json prints the signed report, byte for byte as the ledger answers it', 'table')
      .option('--file <export.jsonl>', 'recompute from an export instead of asking the running ledger')
      .option('--project <project>', "with --file: only this project's rows, as the ledger answers its members")
      .option('--report <report.json>', 'with --file: check this report (from the ledger) against the export and its signature; exit 1 when they differ')
      .option('--public-key <file.pem>', "with --report: an auditor-held copy of the checkpoint key (default: the data dir's)")
      .option('--quiet', 'no progress on stderr'),
  ).action(async (options: UsageOptions) => {
    if (!(FORMATS as readonly string[]).includes(options.format)) throw new CliError(`--format must be one of ${FORMATS.join(', ')}`, 2);
    if (options.report) {
      await checkReport(options);
      return;
    }
    if (options.from === undefined || options.to === undefined) throw new CliError('--from and --to are required (or --report)', 2);
    const report = options.file ? await fromExport(options.file, options) : await fromLedger(options);
    process.stdout.write(formatReport(report, options.format));
  });
}

async function fromLedger(options: UsageOptions): Promise<UsageReport> {
  const query = new URLSearchParams({ from: options.from!, to: options.to! });
  if (options.groupBy) query.set('groupBy', options.groupBy);
  return LedgerApiClient.fromOptions(options).request<UsageReport>('GET', `/api/v1/usage?${query}`);
}

async function fromExport(file: string, options: UsageOptions, asked?: UsageReport): Promise<UsageReport> {
  const groupBy = cliGroupBy(asked?.groupBy ?? options.groupBy);
  const history = await deviceHistoryOfExport(file, options.quiet);
  try {
    const window: UsageWindow = asked ? await askedWindow(asked, await history.positions.headPosition()) : await askedPeriod(history.positions, options);
    const project = asked ? asked.project : options.project ?? null;
    return await computeUsageReport(history.db, window, groupBy, project === null ? { all: true } : { project }, ledgerCheckpointKeys(cliConfig())?.privateKey);
  } finally {
    await history.db.close();
  }
}

async function askedPeriod(positions: PositionTimes, options: UsageOptions): Promise<UsageWindow> {
  try {
    const window = await resolveUsageWindow(positions, cliLogPoint(options.from!, '--from'), cliLogPoint(options.to!, '--to'));
    assertUsagePeriodOver(window, new Date());
    return window;
  } catch (error) {
    if (error instanceof ValidationError) throw new CliError(error.message, 2);
    throw error;
  }
}

/** The report's own window: an auditor recomputes what it claims, from a log that reaches its position. */
async function askedWindow(report: UsageReport, head: number): Promise<UsageWindow> {
  if (report.to.position > head) throw new CliError(`the report was computed at position ${report.to.position}; the export ends at ${head}`, 2);
  return { from: report.from, to: report.to };
}

async function checkReport(options: UsageOptions): Promise<void> {
  if (!options.file) throw new CliError('--report needs --file: the export to recompute it from', 2);
  const given = readReport(options.report!);
  const recomputed = await fromExport(options.file, options, given);
  const key = verifyingKey(cliConfig(), options.publicKey);
  const sameBody = canonicalJson({ ...recomputed, signature: null }) === canonicalJson({ ...given, signature: null });
  const signed = key !== undefined && usageReportSignatureValid(given, key);
  process.stdout.write(
    `${sameBody ? 'rows match the export' : 'rows DIFFER from the export'} (position ${given.position}); ` +
      `${signed ? 'signature valid' : key ? 'signature INVALID' : 'no key to check the signature with'}\n`,
  );
  process.exitCode = sameBody && signed ? 0 : 1;
}

function readReport(file: string): UsageReport {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8')) as UsageReport;
    if (report?.kind !== 'ledger.UsageReport') throw new Error('not a usage report (kind ledger.UsageReport)');
    return report;
  } catch (error) {
    throw new CliError(`--report ${file}: ${(error as Error).message}`, 2);
  }
}

function cliGroupBy(value: string | undefined) {
  try {
    return parseUsageGroupBy(value);
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
}

function formatReport(report: UsageReport, format: string): string {
  if (format === 'json') return `${usageReportText(report)}\n`;
  const header = [report.groupBy, 'tenancies', 'heldSeconds', 'gpuMemoryGiBSeconds', 'migSliceSeconds'];
  const rows = report.rows.map((row) => [cell(row.group), String(row.tenancies), row.heldSeconds, row.gpuMemoryGiBSeconds, cell(row.migSliceSeconds)]);
  if (format === 'csv') return [header, ...rows].map((line) => line.map(csvField).join(',')).join('\n') + '\n';
  const title = `usage ${report.from.time} to ${report.to.time} at position ${report.position}${report.project ? ` (project ${report.project})` : ''}\n`;
  return rows.length === 0 ? `${title}nobody held a device in that period\n` : title + formatTable(header.map((h) => h.toUpperCase()), rows);
}

const csvField = (value: string): string => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
