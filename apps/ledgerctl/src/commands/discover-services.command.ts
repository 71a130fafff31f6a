import type { Command } from 'commander';
import type { HostView } from '@ledger/projections/inventory';
import type { JobView } from '@ledger/projections/jobs';
import { allPages } from '../support/all-pages';
import { CliError } from '../support/cli-error';
import { followJob } from '../support/job-follower';
import { LedgerApiClient, LedgerApiError } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';
import { JOB_FAILED_EXIT_CODE, type JobCommandOptions, type RequestedHostJob, requestJob, withJobOptions } from './job-command';
import { JobProgress } from './job-progress';

/** The ledger refuses a job for a host whose agent is lost or never ran (docs/errors.md). */
const AGENT_UNAVAILABLE = 'JOB.AGENT_UNAVAILABLE';

/** A host asked nothing, because the ledger said no agent would take its job. */
export interface SkippedHost {
  readonly hostname: string;
  readonly kind: 'discover';
  readonly jobId: null;
  readonly state: 'skipped';
  readonly code: string;
  readonly reason: string;
}

/** One row of the outcome: a job (requested, or followed to its end) or a skipped host. */
export type DiscoveryOutcome = RequestedHostJob | JobView | SkippedHost;

/**
 * `discover-services [host…]` (the generic-driver spec's): a `discover`
 * job on each host — every host that has reported when none is named —
 * whose agent discovers its accelerators again and sends a fresh report.
 * Hosts without a live agent are skipped and named at once; the others are
 * asked. Every host gets a row; exit 3 when a job failed, else 1 when a
 * host was skipped.
 */
export function registerDiscoverServices(program: Command): void {
  withJobOptions(
    program
      .command('discover-services')
      .description('have agents discover their accelerators again and report (all hosts when none is named; hosts without a live agent are skipped)')
      .argument('[hosts...]', 'the hosts (default: every host that has reported)'),
  ).action(async (hosts: string[], options: JobCommandOptions) => {
    const client = LedgerApiClient.fromOptions(options);
    const targets = await targetHosts(client, hosts);
    if (targets.length === 0) {
      process.stderr.write('ledgerctl: no hosts have reported yet: nothing to discover\n');
      return;
    }
    const requested: RequestedHostJob[] = [];
    const skipped: SkippedHost[] = [];
    const print = (outcomes: readonly DiscoveryOutcome[]) =>
      process.stdout.write(options.json ? `${JSON.stringify(outcomes)}\n` : formatDiscoveryTable(outcomes));
    try {
      for (const host of targets) {
        const outcome = await requestDiscovery(client, host, options.timeout);
        if ('state' in outcome) {
          skipped.push(outcome);
          process.stderr.write(`ledgerctl: skipped ${host}: ${outcome.code}: ${outcome.reason}\n`);
        } else {
          requested.push(outcome);
        }
      }
    } catch (error) {
      // The jobs requested before the refusal stand: say which they are.
      if (requested.length + skipped.length > 0) print([...requested, ...skipped]);
      throw error;
    }
    const finished = options.wait ? await followAll(client, requested) : requested;
    print([...finished, ...skipped]);
    const failed = finished.filter((job) => 'state' in job && job.state === 'failed') as JobView[];
    if (failed.length > 0) throw new CliError(`discovery failed on ${failed.map((job) => `${job.hostname} (${job.code})`).join(', ')}`, JOB_FAILED_EXIT_CODE);
    if (skipped.length > 0) throw new CliError(`no agent to ask on ${skipped.map((host) => host.hostname).join(', ')}: skipped`, 1);
  });
}

/** Named hosts are looked up before any job is requested, so a typo (INVENTORY.HOST_NOT_FOUND, exit 1) requests nothing. */
async function targetHosts(client: Pick<LedgerApiClient, 'request'>, named: readonly string[]): Promise<string[]> {
  const hosts =
    named.length === 0
      ? await allPages<HostView>(client, '/api/v1/hosts')
      : await Promise.all([...new Set(named)].map((host) => client.request<HostView>('GET', `/api/v1/hosts/${encodeURIComponent(host)}`)));
  return hosts.map((host) => host.hostname);
}

/** The host's discover job, or the host skipped when the ledger says no agent would take it; any other refusal stops the command. */
async function requestDiscovery(client: Pick<LedgerApiClient, 'request'>, hostname: string, timeoutSeconds?: number): Promise<RequestedHostJob | SkippedHost> {
  try {
    return await requestJob(client, hostname, 'discover', {}, timeoutSeconds);
  } catch (error) {
    if (!(error instanceof LedgerApiError) || error.code !== AGENT_UNAVAILABLE) throw error;
    return { hostname, kind: 'discover', jobId: null, state: 'skipped', code: error.code, reason: error.detail };
  }
}

async function followAll(client: Pick<LedgerApiClient, 'request'>, requested: readonly RequestedHostJob[]): Promise<JobView[]> {
  const progress = new JobProgress();
  return Promise.all(requested.map((job) => followJob(client, job, { onPoll: (view) => progress.seen(view) })));
}

/** One row per host: the job and its state, and the devices the agent found, or why it failed or was skipped. */
export function formatDiscoveryTable(outcomes: readonly DiscoveryOutcome[]): string {
  const rows = outcomes.map((outcome) => {
    if (!('state' in outcome)) return [outcome.hostname, outcome.jobId, 'requested', '-'];
    const detail =
      outcome.state === 'failed' || outcome.state === 'skipped'
        ? `${outcome.code}: ${outcome.reason}`
        : outcome.state === 'completed'
          ? `${cell(outcome.evidence?.devices as number | undefined)} device(s)`
          : '';
    return [outcome.hostname, cell(outcome.jobId), outcome.state, cell(detail)];
  });
  return formatTable(['HOST', 'JOB', 'STATE', 'OUTCOME'], rows);
}
