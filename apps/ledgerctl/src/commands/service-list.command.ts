import type { Command } from 'commander';
import type { HostView } from '@ledger/projections/inventory';
import { allPages } from '../support/all-pages';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';

/**
 * `service-list`: the agents, one per host that has reported (the generic
 * driver spec's "services"), with their liveness from `GET /api/v1/hosts`.
 */
export function registerServiceList(program: Command): void {
  withLedgerApiOptions(
    program
      .command('service-list')
      .description("the hosts' agents: up, lost or unknown, when last seen, how many devices they report")
      .option('--json', 'print JSON (an array of hosts)')
      .allowExcessArguments(false),
  ).action(async (options: LedgerApiOptions & { json?: boolean }) => {
    const hosts = await allPages<HostView>(LedgerApiClient.fromOptions(options), '/api/v1/hosts');
    process.stdout.write(options.json ? `${JSON.stringify(hosts)}\n` : formatServiceTable(hosts, Date.now()));
  });
}

/** One row per host; "last seen" also says how long ago, as of `now`. */
export function formatServiceTable(hosts: readonly HostView[], now: number): string {
  if (hosts.length === 0) return 'no hosts have reported yet\n';
  const rows = hosts.map((host) => [
    host.hostname,
    host.agentStatus,
    host.lastSeenAt === null ? '-' : `${host.lastSeenAt} (${age(now - Date.parse(host.lastSeenAt))} ago)`,
    cell(host.deviceCount),
  ]);
  return formatTable(['HOST', 'AGENT', 'LAST SEEN', 'DEVICES'], rows);
}

function age(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}
