import type { Command } from 'commander';
import { LedgerApiClient } from '../support/ledger-api-client';
import { awaitDriverFacts } from './driver-facts-settle';
import { type JobCommandOptions, reportJob, requestJob, withJobOptions } from './job-command';

type DriverJobOptions = JobCommandOptions & { readonly version?: string };

/**
 * `install-driver`, `uninstall-driver`, `update-driver` (the generic-driver
 * spec's commands): a driver job on one host, whose agent runs the driver's
 * Ansible playbook. Driver names and versions are checked by the ledger
 * (JOB.INVALID) and by the agent, which knows which drivers it ships.
 */
export function registerDriverJobCommands(program: Command): void {
  withJobOptions(
    program
      .command('install-driver')
      .description("install a driver's host software on a host (its agent runs the driver's install playbook)")
      .argument('<host>', 'the host, as it reports itself')
      .argument('<driver>', 'the driver, e.g. nvidia-gpu, intel-fpga, simulated')
      .option('--version <version>', "the version to install (default: the playbook's)"),
  ).action((host: string, driver: string, options: DriverJobOptions) => runDriverJob('install-driver', host, driver, options));

  withJobOptions(
    program
      .command('uninstall-driver')
      .description("remove a driver's host software from a host (its uninstall playbook)")
      .argument('<host>', 'the host, as it reports itself')
      .argument('<driver>', 'the driver'),
  ).action((host: string, driver: string, options: DriverJobOptions) => runDriverJob('uninstall-driver', host, driver, options));

  withJobOptions(
    program
      .command('update-driver')
      .description("move a driver's host software on a host to another version (the install playbook, with that version)")
      .argument('<host>', 'the host, as it reports itself')
      .argument('<driver>', 'the driver')
      .requiredOption('--version <version>', 'the version to move to'),
  ).action((host: string, driver: string, options: DriverJobOptions) => runDriverJob('update-driver', host, driver, options));
}

async function runDriverJob(kind: string, host: string, driver: string, options: DriverJobOptions): Promise<void> {
  const client = LedgerApiClient.fromOptions(options);
  const params = { driver, ...(options.version === undefined ? {} : { version: options.version }) };
  const requested = await requestJob(client, host, kind, params, options.timeout);
  await reportJob(client, requested, options, (job) => awaitDriverFacts(client, job));
}
