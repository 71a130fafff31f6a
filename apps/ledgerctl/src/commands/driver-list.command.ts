import type { Command } from 'commander';
import type { HostDriverView } from '@ledger/projections/jobs';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';

/** A driver job not finished yet (`GET /api/v1/hosts/{host}/drivers`, `pending`). */
interface PendingDriverJob {
  readonly jobId: string;
  readonly kind: string;
  readonly driver: string;
  readonly version: string | null;
  readonly state: string;
}

interface HostDrivers {
  readonly hostname: string;
  readonly drivers: HostDriverView[];
  readonly pending: PendingDriverJob[];
}

/** `driver-list <host>`: what the host's driver jobs installed (`GET /api/v1/hosts/{host}/drivers`). */
export function registerDriverList(program: Command): void {
  withLedgerApiOptions(
    program
      .command('driver-list')
      .description("the drivers a host's driver jobs installed, with their versions, installs that failed, and driver jobs still pending")
      .argument('<host>', 'the host, as it reports itself')
      .option('--json', 'print JSON')
      .allowExcessArguments(false),
  ).action(async (host: string, options: LedgerApiOptions & { json?: boolean }) => {
    const answer = await LedgerApiClient.fromOptions(options).request<HostDrivers>('GET', `/api/v1/hosts/${encodeURIComponent(host)}/drivers`);
    process.stdout.write(options.json ? `${JSON.stringify(answer)}\n` : formatDriverTable(answer));
  });
}

/** One row per driver: status, version, when installed, and the last failure since the last success; then the driver jobs still pending. */
export function formatDriverTable({ hostname, drivers, pending }: HostDrivers): string {
  const waiting = pending.map((job) => `pending: ${job.kind} ${job.driver}${job.version ? ` ${job.version}` : ''} (job ${job.jobId}, ${job.state})\n`).join('');
  if (drivers.length === 0) return `host ${hostname}: no drivers installed by driver jobs${pending.length > 0 ? ' yet' : ''}\n${waiting}`;
  const rows = drivers.map((driver) => [
    driver.driver,
    driver.status,
    cell(driver.version),
    cell(driver.installedAt),
    driver.lastFailure ? `${driver.lastFailure.operation} at ${driver.lastFailure.failedAt}: ${driver.lastFailure.reason}` : '-',
  ]);
  return `host ${hostname}\n${formatTable(['DRIVER', 'STATUS', 'VERSION', 'INSTALLED AT', 'LAST FAILURE'], rows)}${waiting}`;
}
