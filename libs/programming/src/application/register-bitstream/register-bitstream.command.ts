import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { SignatureVerdict } from '../../domain/signature-verdict';

export interface RegisteredBitstream {
  readonly bitstreamId: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly signature: SignatureVerdict;
  readonly position: number;
}

/** What describes an image besides its bytes, as an operator sends it: its detached signature (null: unsigned) and metadata. */
export interface BitstreamMetadata {
  readonly signature: Buffer | null;
  readonly keyId?: string;
  readonly functionId: string;
  readonly interfaceId: string;
  readonly vendor: string;
  readonly name: string | null;
}

/**
 * Registers an image from its bytes and detached signature (null: unsigned).
 * The bytes are stored by sha256 and the signature checked against the
 * trusted keys (or the one `keyId` names); a refusal removes what it stored
 * and records nothing.
 */
export class RegisterBitstreamCommand extends LedgerCommand<RegisteredBitstream> {
  constructor(
    readonly input: BitstreamMetadata & { readonly content: Buffer },
    readonly context: CommandContext,
  ) {
    super();
  }
}
