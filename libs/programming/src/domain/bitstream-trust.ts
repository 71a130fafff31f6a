import type { SignatureVerdict } from './signature-verdict';

/**
 * An image's signature as it stands now: the verdict recorded at
 * registration, except that a valid signature whose key has been revoked
 * since is `revoked` (and `valid` again should the key be trusted again).
 */
export type SignatureStanding = SignatureVerdict | { readonly verdict: 'revoked'; readonly keyId: string };

/** The recorded verdict against the keys trusted now (a key absent from them counts as revoked). */
export function signatureStanding(recorded: SignatureVerdict, trustedKeyIds: ReadonlySet<string>): SignatureStanding {
  if (recorded.verdict !== 'valid' || trustedKeyIds.has(recorded.keyId)) return recorded;
  return { verdict: 'revoked', keyId: recorded.keyId };
}

/**
 * The one rule for loading an image anywhere (a bind's region, a
 * provisioning's shell): its signature is valid by a key still trusted, or
 * it is unsigned while LEDGER_BITSTREAM_ALLOW_UNSIGNED allows unsigned images.
 */
export function mayBeLoaded(standing: SignatureStanding, allowUnsigned: boolean): boolean {
  return standing.verdict === 'valid' || (standing.verdict === 'unsigned' && allowUnsigned);
}
