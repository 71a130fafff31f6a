import type { Command } from 'commander';
import { type LedgerApiOptions, LedgerApiClient as Client, withLedgerApiOptions } from '../support/ledger-api-client';

type Options = LedgerApiOptions & { readonly reason?: string; readonly json?: boolean };

interface HostFenceAnswer {
  readonly hostname: string;
  readonly fenced: boolean;
  readonly appended: number;
  readonly position: number | null;
}

/** The line a fence or unfence prints: what the host is now, and whether this call changed it. */
export function formatHostFence(answer: HostFenceAnswer): string {
  const state = answer.fenced ? 'fenced' : 'unfenced';
  return `${answer.hostname}: ${state}${answer.appended === 0 ? ' (it already was)' : ''}\n`;
}

/**
 * `host fence HOST --reason TEXT` and `host unfence HOST` (admin): the
 * running ledger's POST /api/v1/hosts/{hostname}/fence and /unfence
 * (docs/operations.md, "Fencing a host").
 */
export function registerHostFenceCommands(host: Command): void {
  withLedgerApiOptions(
    host
      .command('fence')
      .description("fence a dead host: release every hold on its devices with the reason, reserve its providers in Placement, refuse binds to it until unfenced (admin)")
      .argument('<hostname>')
      .requiredOption('--reason <text>', 'why: recorded on the fence and on every release it makes')
      .option('--json', 'print JSON'),
  ).action(async (hostname: string, options: Options) => {
    const answer = await Client.fromOptions(options).request<HostFenceAnswer>('POST', `/api/v1/hosts/${encodeURIComponent(hostname)}/fence`, { reason: options.reason });
    process.stdout.write(options.json ? `${JSON.stringify(answer)}\n` : formatHostFence(answer));
  });
  withLedgerApiOptions(
    host.command('unfence').description('let a fenced host be used again: its devices are offered and claimable (admin)').argument('<hostname>').option('--json', 'print JSON'),
  ).action(async (hostname: string, options: Options) => {
    const answer = await Client.fromOptions(options).request<HostFenceAnswer>('POST', `/api/v1/hosts/${encodeURIComponent(hostname)}/unfence`);
    process.stdout.write(options.json ? `${JSON.stringify(answer)}\n` : formatHostFence(answer));
  });
}
