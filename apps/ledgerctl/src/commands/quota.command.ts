import type { Command } from 'commander';
import { CliError } from '../support/cli-error';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { formatQuotaTable, type QuotaView } from './quota-table';

type OutputOptions = LedgerApiOptions & { readonly json?: boolean };

/**
 * `quota set` and `quota show`: per-project limits, through the running
 * ledger's API (PUT / GET /api/v1/quotas/{project}). Resource names are
 * checked by the ledger, so the CLI accepts whatever it will.
 */
export function registerQuotaCommands(program: Command): void {
  const quota = program.command('quota').description("per-project limits on accelerators and device capacity (a running ledger's API)");

  withLedgerApiOptions(
    quota
      .command('set')
      .description('set limits (RESOURCE=N) and remove them (--unset RESOURCE); limits not named are kept')
      .argument('<project>', 'the project (tenant) id')
      .argument('[limits...]', 'RESOURCE=N, e.g. FPGA=4 capacity:memoryGiB=160; N=0 forbids the resource')
      .option('--unset <resource...>', 'remove these limits (the resources become unlimited)')
      .option('--json', 'print the result as JSON'),
  ).action(async (project: string, assignments: string[], options: OutputOptions & { unset?: string[] }) => {
    const limits = parseLimits(assignments, options.unset ?? []);
    const result = await LedgerApiClient.fromOptions(options).request<QuotaView & { appended: number }>(
      'PUT',
      `/api/v1/quotas/${encodeURIComponent(project)}`,
      { limits },
    );
    print(result, options.json);
  });

  withLedgerApiOptions(
    quota
      .command('show')
      .description("print a project's limits and what is in use")
      .argument('<project>', 'the project (tenant) id')
      .option('--json', 'print JSON'),
  ).action(async (project: string, options: OutputOptions) => {
    print(await LedgerApiClient.fromOptions(options).request<QuotaView>('GET', `/api/v1/quotas/${encodeURIComponent(project)}`), options.json);
  });
}

function print(quota: QuotaView, json: boolean | undefined): void {
  process.stdout.write(json ? `${JSON.stringify(quota)}\n` : formatQuotaTable(quota));
}

/** `FPGA=4` and `--unset PGPU` into `{ FPGA: 4, PGPU: null }`; malformed usage exits 2. */
export function parseLimits(assignments: readonly string[], unset: readonly string[]): Record<string, number | null> {
  const limits = new Map<string, number | null>();
  for (const assignment of assignments) {
    const match = /^([^=]+)=(\d{1,16})$/.exec(assignment);
    if (!match || !Number.isSafeInteger(Number(match[2]))) {
      throw new CliError(`expected RESOURCE=N with N a whole number ≥ 0, got "${assignment}"`, 2);
    }
    if (limits.has(match[1])) throw new CliError(`${match[1]} is given twice`, 2);
    limits.set(match[1], Number(match[2]));
  }
  for (const resource of unset) {
    if (resource.includes('=')) throw new CliError(`--unset takes resource names; put "${resource}" before --unset`, 2);
    if (limits.has(resource)) throw new CliError(`${resource} is both set and unset`, 2);
    limits.set(resource, null);
  }
  if (limits.size === 0) throw new CliError('nothing to change: give RESOURCE=N or --unset RESOURCE', 2);
  return Object.fromEntries(limits);
}
