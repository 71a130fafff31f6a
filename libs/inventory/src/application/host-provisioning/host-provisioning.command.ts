import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import type { HostProvisioningCommand as Decided } from '../../domain/host-provisioning.decider';
import type { InventoryCommandResult } from '../inventory-command.result';

/**
 * Starts or ends a host's provisioning on its host stream (the provision
 * workflow sends these): INVENTORY.HOST_NOT_FOUND (404) for a host that
 * never reported, INVENTORY.HOST_PROVISIONING (409) while another runs.
 */
export class HostProvisioningCommand extends Command<InventoryCommandResult> {
  constructor(
    readonly command: Decided,
    readonly context: CommandContext,
  ) {
    super();
  }
}
