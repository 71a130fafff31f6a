import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { SigningKeyAlgorithm } from '../../domain/programming.events';
import type { ProgrammingCommandResult } from '../programming-command.result';

export interface TrustedSigningKey extends ProgrammingCommandResult {
  readonly keyId: string;
  readonly algorithm: SigningKeyAlgorithm;
}

/** Trusts a public key (PEM) to sign images; trusting it again appends nothing. BITSTREAM.KEY_INVALID for anything else. */
export class TrustSigningKeyCommand extends LedgerCommand<TrustedSigningKey> {
  constructor(
    readonly input: { readonly publicKeyPem: string; readonly label: string | null },
    readonly context: CommandContext,
  ) {
    super();
  }
}
