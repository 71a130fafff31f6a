import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ProgrammingCommandRunner } from '../programming-command.runner';
import { parseSigningKey } from '../signature/signing-key.parser';
import { TrustSigningKeyCommand, type TrustedSigningKey } from './trust-signing-key.command';

@CommandHandler(TrustSigningKeyCommand)
export class TrustSigningKeyHandler implements ICommandHandler<TrustSigningKeyCommand> {
  constructor(@Inject(ProgrammingCommandRunner) private readonly runner: ProgrammingCommandRunner) {}

  async execute({ input, context }: TrustSigningKeyCommand): Promise<TrustedSigningKey> {
    const key = parseSigningKey(input.publicKeyPem);
    const result = await this.runner.signingKeys({ type: 'TrustSigningKey', ...key, label: input.label, trustedAt: new Date().toISOString() }, context);
    return { keyId: key.keyId, algorithm: key.algorithm, appended: result.appended, position: result.position ?? null };
  }
}
