import type { Command } from 'commander';
import type { HostView } from '@ledger/projections/inventory';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';

/** `host show HOST [--json]`: one host from the running ledger's GET /api/v1/hosts/{hostname} (admin or manager). */
export function registerHostShowCommand(host: Command): void {
  withLedgerApiOptions(
    host.command('show').description('one host: its status, agent, devices and whether it is fenced (admin or manager)').argument('<hostname>').option('--json', 'print JSON'),
  ).action(async (hostname: string, options: LedgerApiOptions & { readonly json?: boolean }) => {
    const answer = await LedgerApiClient.fromOptions(options).request<HostView>('GET', `/api/v1/hosts/${encodeURIComponent(hostname)}`);
    process.stdout.write(options.json ? `${JSON.stringify(answer)}\n` : formatHost(answer));
  });
}

/** One `field: value` line each; a fenced host says why and since when. */
export function formatHost(host: HostView): string {
  const lines = [
    ['host', host.hostname],
    ['status', host.status],
    ['agent', `${host.agentStatus}${host.lastSeenAt === null ? '' : ` (last seen ${host.lastSeenAt})`}`],
    ['devices', String(host.deviceCount)],
    ['fenced', host.fenced ? `yes, since ${host.fencedAt}: ${host.fencedReason}` : 'no'],
    ['registered', host.registeredAt],
    ['last report', host.lastReportAt],
  ];
  return lines.map(([name, value]) => `${name}: ${value}\n`).join('');
}
