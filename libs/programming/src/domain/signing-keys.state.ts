import type { SigningKeyAlgorithm, SigningKeyEvent } from './programming.events';

export interface TrustedKey {
  readonly keyId: string;
  readonly algorithm: SigningKeyAlgorithm;
  readonly publicKeyPem: string;
  readonly label: string | null;
}

/** The keys images may be signed with now, by key id (revoked keys are dropped). */
export interface SigningKeysState {
  readonly trusted: ReadonlyMap<string, TrustedKey>;
}

export const initialSigningKeysState = (): SigningKeysState => ({ trusted: new Map() });

export function evolveSigningKeys(state: SigningKeysState, event: SigningKeyEvent): SigningKeysState {
  const trusted = new Map(state.trusted);
  switch (event.type) {
    case 'programming.SigningKeyTrusted': {
      const { keyId, algorithm, publicKeyPem, label } = event.data;
      trusted.set(keyId, { keyId, algorithm, publicKeyPem, label });
      return { trusted };
    }
    case 'programming.SigningKeyRevoked':
      trusted.delete(event.data.keyId);
      return { trusted };
    default:
      return state;
  }
}
