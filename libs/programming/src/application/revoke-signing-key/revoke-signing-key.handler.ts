import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ProgrammingCommandRunner } from '../programming-command.runner';
import type { ProgrammingCommandResult } from '../programming-command.result';
import { RevokeSigningKeyCommand } from './revoke-signing-key.command';

@CommandHandler(RevokeSigningKeyCommand)
export class RevokeSigningKeyHandler implements ICommandHandler<RevokeSigningKeyCommand> {
  constructor(@Inject(ProgrammingCommandRunner) private readonly runner: ProgrammingCommandRunner) {}

  async execute({ input, context }: RevokeSigningKeyCommand): Promise<ProgrammingCommandResult> {
    const result = await this.runner.signingKeys({ type: 'RevokeSigningKey', keyId: input.keyId.toLowerCase(), revokedAt: new Date().toISOString() }, context);
    return { appended: result.appended, position: result.position ?? null };
  }
}
