import type { Command } from 'commander';
import { type DesiredHostPlacement, HOST_SYNC_STATES, type HostSyncStatus, type PlacementFleetSync, type PlacementReconcilerStatus } from '@ledger/placement';
import { LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { cell, formatTable } from '../support/text-table';

type OutputOptions = LedgerApiOptions & { readonly json?: boolean };
export type FleetAnswer = PlacementFleetSync & { readonly reconciler: { readonly enabled: boolean } & Partial<PlacementReconcilerStatus> };
export type HostAnswer = DesiredHostPlacement & { readonly sync: HostSyncStatus | null };

/**
 * `placement status [HOST]`: where Placement stands with the ledger, through
 * the running ledger's API — the fleet (hosts per state, every host not in
 * sync) from /api/v1/placement, or one host (its sync and the providers it
 * should have) from /api/v1/hosts/{HOST}/placement.
 */
export function registerPlacementCommands(program: Command): void {
  const placement = program.command('placement').description("the sync with OpenStack Placement (a running ledger's API)");
  withLedgerApiOptions(
    placement
      .command('status')
      .description('hosts per sync state and those not in sync; with HOST, its sync and the providers Placement should hold')
      .argument('[host]', 'one host')
      .option('--json', 'print JSON'),
  ).action(async (host: string | undefined, options: OutputOptions) => {
    const client = LedgerApiClient.fromOptions(options);
    if (host !== undefined) {
      const answer = await client.request<HostAnswer>('GET', `/api/v1/hosts/${encodeURIComponent(host)}/placement`);
      process.stdout.write(options.json ? `${JSON.stringify(answer)}\n` : formatHostSync(answer));
      return;
    }
    const fleet = await fetchFleet(client);
    process.stdout.write(options.json ? `${JSON.stringify(fleet)}\n` : formatFleetSync(fleet));
  });
}

/** Every page: an operator wants every host that is not in sync. */
async function fetchFleet(client: LedgerApiClient): Promise<FleetAnswer> {
  const first = await client.request<FleetAnswer>('GET', '/api/v1/placement?limit=1000');
  const items = [...first.items];
  for (let cursor = first.nextCursor; cursor !== null; ) {
    const page = await client.request<FleetAnswer>('GET', `/api/v1/placement?limit=1000&cursor=${encodeURIComponent(cursor)}`);
    items.push(...page.items);
    cursor = page.nextCursor;
  }
  return { ...first, items, nextCursor: null };
}

export function formatFleetSync(fleet: FleetAnswer): string {
  const { reconciler } = fleet;
  const lines = [`reconciler: ${describeReconciler(reconciler)}`, HOST_SYNC_STATES.map((state) => `${state} ${fleet.counts[state]}`).join('  ')];
  const out = `${lines.join('\n')}\n`;
  if (fleet.items.length === 0) return `${out}${fleet.counts['in-sync'] > 0 ? 'every host is in sync' : 'no host compared yet'}\n`;
  return out + formatTable(['HOST', 'STATE', 'SINCE', 'DETAIL'], fleet.items.map((status) => [status.hostname, status.state, status.since, cell(status.detail)]));
}

function describeReconciler(reconciler: FleetAnswer['reconciler']): string {
  if (!reconciler.enabled) return 'off (neither LEDGER_PLACEMENT_URL nor LEDGER_KEYSTONE_URL is set)';
  if (reconciler.running === undefined) return 'on (this ledger process does not run the processors role)';
  const parts = [reconciler.holdsLease ? 'compares here' : 'another instance compares', ...(reconciler.lastCompareAt ? [`last compare ${reconciler.lastCompareAt}`] : [])];
  if (reconciler.placementUnavailableSince) parts.push(`Placement unavailable since ${reconciler.placementUnavailableSince}`);
  return `on, ${parts.join(', ')}`;
}

export function formatHostSync(answer: HostAnswer): string {
  const { sync } = answer;
  const lines = [
    sync === null
      ? `${answer.hostname}: not compared yet (is LEDGER_PLACEMENT_URL set? see \`ledgerctl placement status\`)`
      : `${answer.hostname}: ${sync.state} since ${sync.since} (desired state of position ${answer.position}, in Placement up to ${sync.position})`,
    ...(sync?.detail ? [`  ${sync.detail}`] : []),
    ...(sync?.blocked ?? []).map((blocked) => `  blocked: ${blocked.name} holds ${Object.entries(blocked.usages).map(([rc, used]) => `${rc} ${used}`).join(', ')}`),
    ...(sync?.lastRepair ? [`  drift repaired at ${sync.lastRepair.at}: ${sync.lastRepair.what.join('; ')}`] : []),
  ];
  const out = `${lines.join('\n')}\n`;
  if (answer.providers.length === 0) return `${out}no providers wanted\n`;
  const rows = answer.providers.map((provider) => [
    provider.name,
    provider.resourceClass,
    cell(provider.total),
    cell(provider.reserved),
    cell(provider.reservedBecause.join(',')),
    provider.traits.join(','),
  ]);
  return out + formatTable(['PROVIDER', 'CLASS', 'TOTAL', 'RESERVED', 'BECAUSE', 'TRAITS'], rows);
}
