import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { bitstreamIdOf } from '../../domain/bitstream-id';
import { BITSTREAM_CONTENT_STORE, type BitstreamContentStore } from '../bitstream-content.port';
import { ProgrammingCommandRunner } from '../programming-command.runner';
import { PROGRAMMING_SETTINGS, type ProgrammingSettings } from '../programming.settings';
import { verifyDetachedSignature } from '../signature/detached-signature.verifier';
import { RegisterBitstreamCommand, type RegisteredBitstream } from './register-bitstream.command';

@CommandHandler(RegisterBitstreamCommand)
export class RegisterBitstreamHandler implements ICommandHandler<RegisterBitstreamCommand> {
  constructor(
    @Inject(ProgrammingCommandRunner) private readonly runner: ProgrammingCommandRunner,
    @Inject(BITSTREAM_CONTENT_STORE) private readonly content: BitstreamContentStore,
    @Inject(PROGRAMMING_SETTINGS) private readonly settings: ProgrammingSettings,
  ) {}

  async execute({ input, context }: RegisterBitstreamCommand): Promise<RegisteredBitstream> {
    const sha256 = createHash('sha256').update(input.content).digest('hex');
    const signature = verifyDetachedSignature(input.content, input.signature, await this.runner.trustedKeys(), input.keyId);
    const bitstreamId = bitstreamIdOf(sha256);
    // Stored before the event, so a recorded bitstream always has its bytes; removed again if refused.
    const { created } = await this.content.put(sha256, input.content);
    try {
      const result = await this.runner.bitstream(
        bitstreamId,
        {
          type: 'RegisterBitstream',
          sha256,
          sizeBytes: input.content.length,
          functionId: input.functionId,
          interfaceId: input.interfaceId,
          vendor: input.vendor,
          name: input.name,
          signature,
          allowUnsigned: this.settings.allowUnsigned,
          registeredAt: new Date().toISOString(),
        },
        context,
      );
      return { bitstreamId, sha256, sizeBytes: input.content.length, signature, position: result.position! };
    } catch (error) {
      if (created) await this.content.remove(sha256);
      throw error;
    }
  }
}
