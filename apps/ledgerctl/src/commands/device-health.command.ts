import type { Command } from 'commander';
import { type LedgerApiOptions, LedgerApiClient as Client, withLedgerApiOptions } from '../support/ledger-api-client';

type Options = LedgerApiOptions & { readonly note?: string; readonly json?: boolean };

interface ClearAnswer {
  readonly uuid: string;
  readonly appended: number;
  readonly position: number | null;
}

/** The line a clear prints: whether this call brought the device back. */
export const formatHealthClear = (answer: ClearAnswer): string => `${answer.uuid}: healthy${answer.appended === 0 ? ' (it already was)' : ' again, offered once more'}\n`;

/**
 * `device health clear UUID [--note TEXT]` (admin), under `device`: the
 * running ledger's POST /api/v1/devices/{uuid}/health/clear, the operator's
 * recovery under the health policy (docs/operations.md, "Health policy").
 */
export function registerDeviceHealthCommands(device: Command): void {
  const health = device.command('health').description("a device's health under the health policy");
  withLedgerApiOptions(
    health
      .command('clear')
      .description('declare an unhealthy device healthy again, e.g. after the repair a policy left to an operator (admin)')
      .argument('<uuid>')
      .option('--note <text>', 'what was done: recorded on the clear')
      .option('--json', 'print JSON'),
  ).action(async (uuid: string, options: Options) => {
    const body = options.note === undefined ? {} : { note: options.note };
    const answer = await Client.fromOptions(options).request<ClearAnswer>('POST', `/api/v1/devices/${encodeURIComponent(uuid)}/health/clear`, body);
    process.stdout.write(options.json ? `${JSON.stringify(answer)}\n` : formatHealthClear(answer));
  });
}
