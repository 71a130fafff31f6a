import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore, handleCommand } from '@ledger/eventstore';
import { ValidationError } from '@ledger/kernel';
import { hostProvisioningDecider } from '../../domain/host-provisioning.decider';
import { hostnameProblem } from '../../domain/hostname';
import { InventoryErrorCodes } from '../../domain/inventory.errors';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { hostStream } from '../../domain/streams';
import { toInventoryCommandResult, type InventoryCommandResult } from '../inventory-command.result';
import { RunHostProvisioningCommand } from './host-provisioning.command';

@CommandHandler(RunHostProvisioningCommand)
export class HostProvisioningHandler implements ICommandHandler<RunHostProvisioningCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ command, context }: RunHostProvisioningCommand): Promise<InventoryCommandResult> {
    // The stream name comes from the hostname, so it is checked before anything is read.
    const problem = hostnameProblem(command.hostname);
    if (problem) throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `hostname ${problem}`, { path: 'hostname' });
    const result = await handleCommand(this.store, hostStream(command.hostname), hostProvisioningDecider, command, context, {
      schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
    });
    return toInventoryCommandResult(result);
  }
}
