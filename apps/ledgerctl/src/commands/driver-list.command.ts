import type { Command } from 'commander';
import type { HostDriverView } from '@ledger/projections/jobs';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';

interface HostDrivers {
  readonly hostname: string;
  readonly drivers: HostDriverView[];
}

/** `driver-list <host>`: what the host's driver jobs installed (`GET /api/v1/hosts/{host}/drivers`). */
export function registerDriverList(program: Command): void {
  withLedgerApiOptions(
    program
      .command('driver-list')
      .description("the drivers a host's driver jobs installed, with their versions, and installs that failed")
      .argument('<host>', 'the host, as it reports itself')
      .option('--json', 'print JSON')
      .allowExcessArguments(false),
  ).action(async (host: string, options: LedgerApiOptions & { json?: boolean }) => {
    const answer = await LedgerApiClient.fromOptions(options).request<HostDrivers>('GET', `/api/v1/hosts/${encodeURIComponent(host)}/drivers`);
    process.stdout.write(options.json ? `${JSON.stringify(answer)}\n` : formatDriverTable(answer));
  });
}

/** One row per driver: status, version, when installed, and the last failure since the last success. */
export function formatDriverTable({ hostname, drivers }: HostDrivers): string {
  if (drivers.length === 0) return `host ${hostname}: no drivers installed by driver jobs\n`;
  const rows = drivers.map((driver) => [
    driver.driver,
    driver.status,
    cell(driver.version),
    cell(driver.installedAt),
    driver.lastFailure ? `${driver.lastFailure.operation} at ${driver.lastFailure.failedAt}: ${driver.lastFailure.reason}` : '-',
  ]);
  return `host ${hostname}\n${formatTable(['DRIVER', 'STATUS', 'VERSION', 'INSTALLED AT', 'LAST FAILURE'], rows)}`;
}
