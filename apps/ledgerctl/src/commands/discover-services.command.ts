import type { Command } from 'commander';
import type { HostView } from '@ledger/projections/inventory';
import type { JobView } from '@ledger/projections/jobs';
import { allPages } from '../support/all-pages';
import { CliError } from '../support/cli-error';
import { followJob } from '../support/job-follower';
import { LedgerApiClient } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';
import { JOB_FAILED_EXIT_CODE, type JobCommandOptions, type RequestedHostJob, requestJob, withJobOptions } from './job-command';
import { JobProgress } from './job-progress';

/**
 * `discover-services [host…]` (the generic-driver spec's): a `discover`
 * job on each host — every host that has reported when none is named —
 * whose agent discovers its accelerators again and sends a fresh report.
 */
export function registerDiscoverServices(program: Command): void {
  withJobOptions(
    program
      .command('discover-services')
      .description('have agents discover their accelerators again and report (all hosts when none is named)')
      .argument('[hosts...]', 'the hosts (default: every host that has reported)'),
  ).action(async (hosts: string[], options: JobCommandOptions) => {
    const client = LedgerApiClient.fromOptions(options);
    const targets = await targetHosts(client, hosts);
    if (targets.length === 0) {
      process.stderr.write('ledgerctl: no hosts have reported yet: nothing to discover\n');
      return;
    }
    const requested: RequestedHostJob[] = [];
    const printRequested = () =>
      process.stdout.write(options.json ? `${JSON.stringify(requested)}\n` : formatTable(['HOST', 'JOB'], requested.map((job) => [job.hostname, job.jobId])));
    try {
      for (const host of targets) requested.push(await requestJob(client, host, 'discover', {}, options.timeout));
    } catch (error) {
      // The jobs requested before the refusal stand: say which they are.
      if (requested.length > 0) printRequested();
      throw error;
    }
    if (!options.wait) {
      printRequested();
      return;
    }
    const progress = new JobProgress();
    const finished = await Promise.all(requested.map((job) => followJob(client, job, { onPoll: (view) => progress.seen(view) })));
    process.stdout.write(options.json ? `${JSON.stringify(finished)}\n` : formatDiscoveryTable(finished));
    const failed = finished.filter((job) => job.state === 'failed');
    if (failed.length > 0) throw new CliError(`discovery failed on ${failed.map((job) => `${job.hostname} (${job.code})`).join(', ')}`, JOB_FAILED_EXIT_CODE);
  });
}

/**
 * Named hosts are looked up before any job is requested, so a typo
 * (INVENTORY.HOST_NOT_FOUND, exit 1) requests nothing; lost agents are
 * included but named, since their jobs wait for them or time out.
 */
async function targetHosts(client: Pick<LedgerApiClient, 'request'>, named: readonly string[]): Promise<string[]> {
  const hosts =
    named.length === 0
      ? await allPages<HostView>(client, '/api/v1/hosts')
      : await Promise.all([...new Set(named)].map((host) => client.request<HostView>('GET', `/api/v1/hosts/${encodeURIComponent(host)}`)));
  for (const host of hosts.filter((candidate) => candidate.agentStatus === 'lost')) {
    process.stderr.write(`ledgerctl: the agent of ${host.hostname} is lost (last seen ${cell(host.lastSeenAt)}): its job waits for it or times out\n`);
  }
  return hosts.map((host) => host.hostname);
}

/** One row per host: the job's state and the devices the agent found, or why it failed. */
export function formatDiscoveryTable(jobs: readonly JobView[]): string {
  const rows = jobs.map((job) => [
    job.hostname,
    job.jobId,
    job.state,
    job.state === 'failed' ? `${job.code}: ${job.reason}` : `${cell(job.evidence?.devices as number | undefined)} device(s)`,
  ]);
  return formatTable(['HOST', 'JOB', 'STATE', 'OUTCOME'], rows);
}
