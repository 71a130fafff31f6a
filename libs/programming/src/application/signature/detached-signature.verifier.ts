import { constants, createPublicKey, verify } from 'node:crypto';
import { SigningKeyUnknownError } from '../../domain/programming.errors';
import type { SignatureVerdict } from '../../domain/signature-verdict';
import type { TrustedKey } from '../../domain/signing-keys.state';

/**
 * Checks a detached signature over the image bytes with node:crypto:
 * against the key named (it must be trusted), or else against every trusted
 * key until one verifies. Ed25519 signs the bytes themselves; RSA-PSS
 * (salt length as the signer chose) and ECDSA P-256 (DER) sign their SHA-256
 * — what `openssl pkeyutl -rawin` and `openssl dgst -sha256 -sign` produce.
 */
export function verifyDetachedSignature(
  image: Buffer,
  signature: Buffer | null,
  trusted: ReadonlyMap<string, TrustedKey>,
  keyId?: string,
): SignatureVerdict {
  if (signature === null) return { verdict: 'unsigned' };
  if (keyId !== undefined) {
    const key = trusted.get(keyId);
    if (!key) throw new SigningKeyUnknownError(keyId);
    return verifiesWith(image, signature, key) ? { verdict: 'valid', keyId } : { verdict: 'invalid', keyId, reason: `does not verify with key ${keyId}` };
  }
  if (trusted.size === 0) return { verdict: 'invalid', reason: 'no signing key is trusted' };
  for (const key of trusted.values()) {
    if (verifiesWith(image, signature, key)) return { verdict: 'valid', keyId: key.keyId };
  }
  return { verdict: 'invalid', reason: `does not verify with any of the ${trusted.size} trusted keys` };
}

function verifiesWith(image: Buffer, signature: Buffer, key: TrustedKey): boolean {
  const publicKey = createPublicKey(key.publicKeyPem);
  try {
    switch (key.algorithm) {
      case 'ed25519':
        return verify(null, image, publicKey, signature);
      case 'rsa-pss-sha256':
        return verify('sha256', image, { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }, signature);
      case 'ecdsa-p256-sha256':
        return verify('sha256', image, publicKey, signature);
    }
  } catch {
    // Garbage that is not even shaped like a signature of this kind (a malformed DER) is simply not a match.
    return false;
  }
}
