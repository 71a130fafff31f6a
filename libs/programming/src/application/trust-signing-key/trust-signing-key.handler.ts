import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ProgrammingCommands } from '../programming-commands';
import { PROGRAMMING_COMMANDS } from '../programming.tokens';
import { parseSigningKey } from '../signature/signing-key.parser';
import { TrustSigningKeyCommand, type TrustedSigningKey } from './trust-signing-key.command';

@CommandHandler(TrustSigningKeyCommand)
export class TrustSigningKeyHandler implements ICommandHandler<TrustSigningKeyCommand> {
  constructor(@Inject(PROGRAMMING_COMMANDS) private readonly commands: ProgrammingCommands) {}

  async execute({ input, context }: TrustSigningKeyCommand): Promise<TrustedSigningKey> {
    const key = parseSigningKey(input.publicKeyPem);
    const result = await this.commands.signingKeys.run({ type: 'TrustSigningKey', ...key, label: input.label, trustedAt: new Date().toISOString() }, context);
    return { keyId: key.keyId, algorithm: key.algorithm, appended: result.appended, position: result.position ?? null };
  }
}
