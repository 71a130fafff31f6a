import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import type { SignatureVerdict } from '../../domain/signature-verdict';

export interface RegisteredBitstream {
  readonly bitstreamId: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly signature: SignatureVerdict;
  readonly position: number;
}

/**
 * Registers an image from its bytes and detached signature (null: unsigned).
 * The bytes are stored by sha256 and the signature checked against the
 * trusted keys (or the one `keyId` names); a refusal removes what it stored
 * and records nothing.
 */
export class RegisterBitstreamCommand extends Command<RegisteredBitstream> {
  constructor(
    readonly input: {
      readonly content: Buffer;
      readonly signature: Buffer | null;
      readonly keyId?: string;
      readonly functionId: string;
      readonly interfaceId: string;
      readonly vendor: string;
      readonly name: string | null;
    },
    readonly context: CommandContext,
  ) {
    super();
  }
}
