import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BITSTREAM_CONTENT_STORE, type BitstreamContentStore } from '../bitstream-content.port';
import type { ProgrammingCommands } from '../programming-commands';
import { PROGRAMMING_COMMANDS } from '../programming.tokens';
import { PROGRAMMING_SETTINGS, type ProgrammingSettings } from '../programming.settings';
import { appendRegistration } from './bitstream-registration';
import { RegisterBitstreamCommand, type RegisteredBitstream } from './register-bitstream.command';

@CommandHandler(RegisterBitstreamCommand)
export class RegisterBitstreamHandler implements ICommandHandler<RegisterBitstreamCommand> {
  constructor(
    @Inject(PROGRAMMING_COMMANDS) private readonly commands: ProgrammingCommands,
    @Inject(BITSTREAM_CONTENT_STORE) private readonly content: BitstreamContentStore,
    @Inject(PROGRAMMING_SETTINGS) private readonly settings: ProgrammingSettings,
  ) {}

  async execute({ input, context }: RegisterBitstreamCommand): Promise<RegisteredBitstream> {
    const sha256 = createHash('sha256').update(input.content).digest('hex');
    // Stored before the event, so a recorded bitstream always has its bytes; removed again if refused.
    const { created } = await this.content.put(sha256, input.content);
    try {
      return await appendRegistration(this.commands, { bytes: input.content, sha256, originUrl: null }, input, this.settings.allowUnsigned, context);
    } catch (error) {
      if (created) await this.content.remove(sha256);
      throw error;
    }
  }
}
