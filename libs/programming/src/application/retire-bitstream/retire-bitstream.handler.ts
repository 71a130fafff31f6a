import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ProgrammingCommands } from '../programming-commands';
import { PROGRAMMING_COMMANDS } from '../programming.tokens';
import type { ProgrammingCommandResult } from '../programming-command.result';
import { RetireBitstreamCommand } from './retire-bitstream.command';

@CommandHandler(RetireBitstreamCommand)
export class RetireBitstreamHandler implements ICommandHandler<RetireBitstreamCommand> {
  constructor(@Inject(PROGRAMMING_COMMANDS) private readonly commands: ProgrammingCommands) {}

  async execute({ input, context }: RetireBitstreamCommand): Promise<ProgrammingCommandResult> {
    const bitstreamId = input.bitstreamId.toLowerCase();
    const result = await this.commands.bitstreams.run(
      { type: 'RetireBitstream', bitstreamId, reason: input.reason, retiredAt: new Date().toISOString() },
      context,
    );
    return { appended: result.appended, position: result.position ?? null };
  }
}
