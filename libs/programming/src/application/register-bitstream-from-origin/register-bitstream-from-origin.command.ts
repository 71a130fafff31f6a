import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { BitstreamMetadata, RegisteredBitstream } from '../register-bitstream/register-bitstream.command';

/**
 * Registers an image kept in an image store by its http(s) URL and the
 * sha256 and size the operator declares. The ledger reads the URL once,
 * checks the bytes against the declaration and the signature against the
 * trusted keys, records the URL as the origin and keeps no bytes; any
 * refusal records nothing.
 */
export class RegisterBitstreamFromOriginCommand extends LedgerCommand<RegisteredBitstream> {
  constructor(
    readonly input: BitstreamMetadata & { readonly url: string; readonly sha256: string; readonly sizeBytes: number },
    readonly context: CommandContext,
  ) {
    super();
  }
}
