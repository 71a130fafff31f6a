import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { checkOriginBytes, originUrlOf } from '../../domain/bitstream-origin';
import { BitstreamInvalidError } from '../../domain/programming.errors';
import { SHA256_HEX } from '../../domain/register-bitstream';
import { BITSTREAM_ORIGIN_READER, type BitstreamOriginReader } from '../bitstream-origin.port';
import type { ProgrammingCommands } from '../programming-commands';
import { PROGRAMMING_COMMANDS } from '../programming.tokens';
import { PROGRAMMING_SETTINGS, type ProgrammingSettings } from '../programming.settings';
import { appendRegistration } from '../register-bitstream/bitstream-registration';
import type { RegisteredBitstream } from '../register-bitstream/register-bitstream.command';
import { RegisterBitstreamFromOriginCommand } from './register-bitstream-from-origin.command';

@CommandHandler(RegisterBitstreamFromOriginCommand)
export class RegisterBitstreamFromOriginHandler implements ICommandHandler<RegisterBitstreamFromOriginCommand> {
  constructor(
    @Inject(PROGRAMMING_COMMANDS) private readonly commands: ProgrammingCommands,
    @Inject(BITSTREAM_ORIGIN_READER) private readonly origins: BitstreamOriginReader,
    @Inject(PROGRAMMING_SETTINGS) private readonly settings: ProgrammingSettings,
  ) {}

  /** Everything that can be checked without the network is, before the URL is read. */
  async execute({ input, context }: RegisterBitstreamFromOriginCommand): Promise<RegisteredBitstream> {
    const url = originUrlOf(input.url);
    const sha256 = input.sha256.toLowerCase();
    if (!SHA256_HEX.test(sha256)) throw new BitstreamInvalidError('sha256', 'must be 64 hex digits');
    const { originMaxBytes, originTimeoutMs } = this.settings;
    if (!Number.isSafeInteger(input.sizeBytes) || input.sizeBytes < 1 || input.sizeBytes > originMaxBytes) {
      throw new BitstreamInvalidError('sizeBytes', `must be a positive integer of at most ${originMaxBytes} (LEDGER_BITSTREAM_ORIGIN_MAX_BYTES)`);
    }
    const read = await this.origins.read(url, { maxBytes: input.sizeBytes, timeoutMs: originTimeoutMs });
    checkOriginBytes(url, { sha256, sizeBytes: input.sizeBytes }, read);
    return appendRegistration(this.commands, { bytes: read.bytes, sha256, originUrl: url }, input, this.settings.allowUnsigned, context);
  }
}
