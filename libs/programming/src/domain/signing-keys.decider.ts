import type { Decider } from '@ledger/kernel';
import { BitstreamInvalidError, SigningKeyUnknownError } from './programming.errors';
import type { SigningKeyEvent } from './programming.events';
import type { SigningKeyCommand, TrustSigningKey } from './signing-keys.commands';
import { evolveSigningKeys, initialSigningKeysState, type SigningKeysState } from './signing-keys.state';

const KEY_ID = /^[0-9a-f]{64}$/;
const LABEL = /^[^\x00-\x1f\x7f]{1,255}$/u;

/**
 * The operator-trusted signing keys (stream `signing-keys`). Trusting a key
 * that is trusted appends nothing; a revoked key may be trusted again, as a
 * new decision on the record.
 */
export const signingKeysDecider: Decider<SigningKeyCommand, SigningKeysState, SigningKeyEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'TrustSigningKey':
        return decideTrust(command, state);
      case 'RevokeSigningKey':
        if (!state.trusted.has(command.keyId)) throw new SigningKeyUnknownError(command.keyId);
        return [{ type: 'programming.SigningKeyRevoked', data: { keyId: command.keyId, revokedAt: command.revokedAt } }];
      default:
        throw new BitstreamInvalidError('type', 'is not a signing-key command');
    }
  },
  evolve: evolveSigningKeys,
  initialState: initialSigningKeysState,
};

function decideTrust(command: TrustSigningKey, state: SigningKeysState): SigningKeyEvent[] {
  if (!KEY_ID.test(command.keyId)) throw new BitstreamInvalidError('keyId', 'must be 64 lower-case hex digits (sha256 of the SPKI DER)');
  if (command.label !== null && !LABEL.test(command.label)) throw new BitstreamInvalidError('label', 'must be 1–255 characters without control characters');
  if (state.trusted.has(command.keyId)) return [];
  const { keyId, algorithm, publicKeyPem, label, trustedAt } = command;
  return [{ type: 'programming.SigningKeyTrusted', data: { keyId, algorithm, publicKeyPem, label, trustedAt } }];
}
