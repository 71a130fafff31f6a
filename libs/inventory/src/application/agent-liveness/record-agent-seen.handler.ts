import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { toInventoryCommandResult, type InventoryCommandResult } from '../inventory-command.result';
import { HOST_LIVENESS_COMMANDS } from '../inventory.tokens';
import type { HostLivenessCommands } from './host-liveness-commands';
import { RecordAgentSeenCommand } from './record-agent-seen.command';

@CommandHandler(RecordAgentSeenCommand)
export class RecordAgentSeenHandler implements ICommandHandler<RecordAgentSeenCommand> {
  constructor(@Inject(HOST_LIVENESS_COMMANDS) private readonly liveness: HostLivenessCommands) {}

  async execute({ hostname, context, seenAt }: RecordAgentSeenCommand): Promise<InventoryCommandResult> {
    const command = { type: 'RecordAgentSeen', hostname, seenAt: seenAt ?? new Date().toISOString() } as const;
    return toInventoryCommandResult(await this.liveness.run(command, context));
  }
}
