import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ProgrammingCommandRunner } from '../programming-command.runner';
import type { ProgrammingCommandResult } from '../programming-command.result';
import { RetireBitstreamCommand } from './retire-bitstream.command';

@CommandHandler(RetireBitstreamCommand)
export class RetireBitstreamHandler implements ICommandHandler<RetireBitstreamCommand> {
  constructor(@Inject(ProgrammingCommandRunner) private readonly runner: ProgrammingCommandRunner) {}

  async execute({ input, context }: RetireBitstreamCommand): Promise<ProgrammingCommandResult> {
    const bitstreamId = input.bitstreamId.toLowerCase();
    const result = await this.runner.bitstream(
      bitstreamId,
      { type: 'RetireBitstream', bitstreamId, reason: input.reason, retiredAt: new Date().toISOString() },
      context,
    );
    return { appended: result.appended, position: result.position ?? null };
  }
}
