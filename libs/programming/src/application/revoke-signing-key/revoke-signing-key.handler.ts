import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ProgrammingCommands } from '../programming-commands';
import { PROGRAMMING_COMMANDS } from '../programming.tokens';
import type { ProgrammingCommandResult } from '../programming-command.result';
import { RevokeSigningKeyCommand } from './revoke-signing-key.command';

@CommandHandler(RevokeSigningKeyCommand)
export class RevokeSigningKeyHandler implements ICommandHandler<RevokeSigningKeyCommand> {
  constructor(@Inject(PROGRAMMING_COMMANDS) private readonly commands: ProgrammingCommands) {}

  async execute({ input, context }: RevokeSigningKeyCommand): Promise<ProgrammingCommandResult> {
    const result = await this.commands.signingKeys.run({ type: 'RevokeSigningKey', keyId: input.keyId.toLowerCase(), revokedAt: new Date().toISOString() }, context);
    return { appended: result.appended, position: result.position ?? null };
  }
}
