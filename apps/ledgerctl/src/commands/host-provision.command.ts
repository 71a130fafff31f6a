import type { Command } from 'commander';
import { CliError } from '../support/cli-error';
import { LedgerApiClient as Client, withLedgerApiOptions } from '../support/ledger-api-client';
import { registerHostFenceCommands } from './host-fence.command';
import { registerHostShowCommand } from './host-show.command';
import { instancePath, reportWorkflow, type WorkflowDetail, type WorkflowReportOptions } from './workflow.command';

type Options = WorkflowReportOptions & { readonly shell: string; readonly vfs: number; readonly device?: string };

function vfCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`--vfs: "${value}" is not a whole number of VFs`);
  return Number(value);
}

/**
 * `host provision HOST --shell BITSTREAM --vfs N [--device UUID] [--wait]`:
 * starts the provision workflow (docs/workflows.md) and shows its instance;
 * `--wait` follows it to its end as `workflow show --wait` does.
 */
export function registerHostCommands(program: Command): void {
  const host = program.command('host').description("hosts: show one, bring one into service (the provision workflow), fence or unfence one (a running ledger's API)");
  registerHostShowCommand(host);
  registerHostFenceCommands(host);
  withLedgerApiOptions(
    host
      .command('provision')
      .description('load a registered shell on the host FPGA, configure its VFs and mark the host provisioned; undone if a step fails (admin)')
      .argument('<hostname>')
      .requiredOption('--shell <bitstream>', 'the registered bitstream to load as the shell')
      .requiredOption('--vfs <n>', 'SR-IOV VFs to configure', vfCount)
      .option('--device <uuid>', 'the FPGA, when the host has several')
      .option('--wait', 'follow it until it ends; exit 3 unless completed')
      .option('--json', 'print JSON'),
  ).action(async (hostname: string, options: Options) => {
    const client = Client.fromOptions(options);
    const body = { shell: options.shell, vfs: options.vfs, ...(options.device ? { device: options.device } : {}) };
    const started = await client.request<{ workflowId: string; position: number }>('POST', `/api/v1/hosts/${encodeURIComponent(hostname)}/provision`, body);
    const headers = { 'x-ledger-min-position': String(started.position) };
    await reportWorkflow(client, 'provision', started.workflowId, options, await client.request<WorkflowDetail>('GET', instancePath('provision', started.workflowId), undefined, { headers }));
  });
}
