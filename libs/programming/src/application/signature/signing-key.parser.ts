import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { SigningKeyInvalidError } from '../../domain/programming.errors';
import type { SigningKeyAlgorithm } from '../../domain/programming.events';

export interface ParsedSigningKey {
  /** sha256 of the key's SPKI DER: the same key always has the same id, however its PEM was wrapped. */
  readonly keyId: string;
  readonly algorithm: SigningKeyAlgorithm;
  readonly publicKeyPem: string;
}

/** The largest PEM accepted: a 4096-bit RSA public key is about 800 characters. */
export const MAX_PUBLIC_KEY_PEM_LENGTH = 16 * 1024;

/**
 * A public key in PEM (SPKI, or PKCS#1 for RSA) as the ledger trusts it:
 * Ed25519, RSA (verified with PSS and SHA-256, at least 2048 bits) or ECDSA
 * on P-256 (SHA-256). A private key is refused rather than reduced to its
 * public half, so an operator who pasted the wrong file learns it.
 */
export function parseSigningKey(pem: unknown): ParsedSigningKey {
  if (typeof pem !== 'string' || pem.length === 0 || pem.length > MAX_PUBLIC_KEY_PEM_LENGTH) {
    throw new SigningKeyInvalidError(`must be a PEM text of at most ${MAX_PUBLIC_KEY_PEM_LENGTH} characters`);
  }
  if (/PRIVATE KEY-----/.test(pem)) throw new SigningKeyInvalidError('this is a private key; trust the public key only');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch (error) {
    throw new SigningKeyInvalidError(`not a PEM public key (${(error as Error).message})`);
  }
  const algorithm = algorithmOf(key);
  const der = key.export({ type: 'spki', format: 'der' });
  return {
    keyId: createHash('sha256').update(der).digest('hex'),
    algorithm,
    publicKeyPem: key.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

function algorithmOf(key: KeyObject): SigningKeyAlgorithm {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'ed25519':
      return 'ed25519';
    case 'rsa':
    case 'rsa-pss':
      if ((details.modulusLength ?? 0) < 2048) throw new SigningKeyInvalidError('an RSA key must have at least 2048 bits');
      return 'rsa-pss-sha256';
    case 'ec':
      if (details.namedCurve !== 'prime256v1') throw new SigningKeyInvalidError(`ECDSA keys must be on P-256, not ${details.namedCurve}`);
      return 'ecdsa-p256-sha256';
    default:
      throw new SigningKeyInvalidError(`${key.asymmetricKeyType} keys are not supported (Ed25519, RSA-PSS, ECDSA P-256)`);
  }
}
