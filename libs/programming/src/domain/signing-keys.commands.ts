import type { SigningKeyAlgorithm } from './programming.events';

/** Trusts a parsed public key; the application layer parsed the PEM and derived id and algorithm. */
export interface TrustSigningKey {
  readonly type: 'TrustSigningKey';
  readonly keyId: string;
  readonly algorithm: SigningKeyAlgorithm;
  readonly publicKeyPem: string;
  readonly label: string | null;
  readonly trustedAt: string;
}

export interface RevokeSigningKey {
  readonly type: 'RevokeSigningKey';
  readonly keyId: string;
  readonly revokedAt: string;
}

export type SigningKeyCommand = TrustSigningKey | RevokeSigningKey;
