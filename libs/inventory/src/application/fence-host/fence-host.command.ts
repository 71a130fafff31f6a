import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { InventoryCommandResult } from '../inventory-command.result';

/**
 * Fences a host (POST /api/v1/hosts/{hostname}/fence, `ledgerctl host fence`,
 * the auto-fence monitor): HostFenced on its stream, then DeviceFenced on
 * each of its devices, releasing every hold with `reason`. Idempotent: sent
 * again it fences the devices it had not reached; after a crash in between,
 * the host-fence reactor does that.
 */
export class FenceHostCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly target: { readonly hostname: string; readonly reason: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** Lets a fenced host's devices be claimed and offered again: HostUnfenced, then DeviceUnfenced on each device. */
export class UnfenceHostCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly target: { readonly hostname: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
