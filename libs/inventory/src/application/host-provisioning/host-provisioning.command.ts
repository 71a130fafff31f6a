import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { HostProvisioningCommand } from '../../domain/host-provisioning.decider';
import type { InventoryCommandResult } from '../inventory-command.result';

/**
 * Starts or ends a host's provisioning on its host stream (the provision
 * workflow sends these): INVENTORY.HOST_NOT_FOUND (404) for a host that
 * never reported, INVENTORY.HOST_PROVISIONING (409) while another runs.
 */
export class RunHostProvisioningCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly command: HostProvisioningCommand,
    readonly context: CommandContext,
  ) {
    super();
  }
}
