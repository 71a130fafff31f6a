import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore, handleCommand } from '@ledger/eventstore';
import { hostProvisioningDecider } from '../../domain/host-provisioning.decider';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { checkedHostStream } from '../../domain/streams';
import { toInventoryCommandResult, type InventoryCommandResult } from '../inventory-command.result';
import { RunHostProvisioningCommand } from './host-provisioning.command';

@CommandHandler(RunHostProvisioningCommand)
export class HostProvisioningHandler implements ICommandHandler<RunHostProvisioningCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ command, context }: RunHostProvisioningCommand): Promise<InventoryCommandResult> {
    const result = await handleCommand(this.store, checkedHostStream(command.hostname), hostProvisioningDecider, command, context, {
      schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
    });
    return toInventoryCommandResult(result);
  }
}
