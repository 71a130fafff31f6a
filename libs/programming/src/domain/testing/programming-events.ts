import { bitstreamIdOf } from '../bitstream-id';
import type { RegisterBitstream } from '../bitstream.commands';
import type { BitstreamOrigin, BitstreamRegistered, BitstreamRetired, SigningKeyRevoked, SigningKeyTrusted } from '../programming.events';
import type { SignatureVerdict } from '../signature-verdict';

export const SHA = 'ab'.repeat(32);
export const KEY_ID = 'cd'.repeat(32);
export const FUNCTION_ID = '9f'.repeat(16);
export const AT = '2026-03-01T10:00:00.000Z';

/** A registration of image SHA as the application layer sends it, with `overrides`. */
export const registerCommand = (signature: SignatureVerdict, overrides: Partial<RegisterBitstream> = {}): RegisterBitstream => ({
  type: 'RegisterBitstream',
  sha256: SHA,
  sizeBytes: 4096,
  functionId: FUNCTION_ID,
  interfaceId: 'b7a6f1d0c5e44c3b8e3f2a1b0c9d8e7f',
  vendor: 'intel',
  name: 'nlb0',
  signature,
  allowUnsigned: false,
  originUrl: null,
  registeredAt: AT,
  ...overrides,
});

export const registered = (
  signature: SignatureVerdict,
  sha256 = SHA,
  origin: BitstreamOrigin = { kind: 'stored', ref: `sha256:${sha256}` },
): BitstreamRegistered => ({
  type: 'programming.BitstreamRegistered',
  data: {
    bitstreamId: bitstreamIdOf(sha256),
    sha256,
    sizeBytes: 4096,
    functionId: FUNCTION_ID,
    interfaceId: 'b7a6f1d0c5e44c3b8e3f2a1b0c9d8e7f',
    vendor: 'intel',
    name: 'nlb0',
    origin,
    signature,
    registeredAt: AT,
  },
});

export const retired = (reason: string | null = null, sha256 = SHA): BitstreamRetired => ({
  type: 'programming.BitstreamRetired',
  data: { bitstreamId: bitstreamIdOf(sha256), sha256, reason, retiredAt: AT },
});

export const keyTrusted = (keyId = KEY_ID): SigningKeyTrusted => ({
  type: 'programming.SigningKeyTrusted',
  data: { keyId, algorithm: 'ed25519', publicKeyPem: '-----BEGIN PUBLIC KEY-----\n…\n-----END PUBLIC KEY-----\n', label: 'release', trustedAt: AT },
});

export const keyRevoked = (keyId = KEY_ID): SigningKeyRevoked => ({ type: 'programming.SigningKeyRevoked', data: { keyId, revokedAt: AT } });
