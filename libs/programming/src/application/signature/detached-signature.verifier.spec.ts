import { constants, generateKeyPairSync, sign } from 'node:crypto';
import type { TrustedKey } from '../../domain/signing-keys.state';
import { verifyDetachedSignature } from './detached-signature.verifier';
import { parseSigningKey } from './signing-key.parser';

const image = Buffer.from('bitstream bytes: a GBS header and 4 KiB of logic'.repeat(100));

function keyPair(kind: 'ed25519' | 'rsa' | 'ec') {
  const pair =
    kind === 'ed25519'
      ? generateKeyPairSync('ed25519')
      : kind === 'rsa'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const parsed = parseSigningKey(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  const trusted: TrustedKey = { ...parsed, label: null };
  const signed = (bytes: Buffer) =>
    kind === 'ed25519'
      ? sign(null, bytes, pair.privateKey)
      : kind === 'rsa'
        ? sign('sha256', bytes, { key: pair.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
        : sign('sha256', bytes, pair.privateKey);
  return { trusted, signed, privateKey: pair.privateKey };
}

const keys = (...trusted: TrustedKey[]) => new Map(trusted.map((key) => [key.keyId, key]));

describe('verifyDetachedSignature (node:crypto)', () => {
  it.each(['ed25519', 'rsa', 'ec'] as const)('accepts a good %s signature and names the key', (kind) => {
    const { trusted, signed } = keyPair(kind);
    const other = keyPair('ed25519').trusted;
    expect(verifyDetachedSignature(image, signed(image), keys(other, trusted))).toEqual({ verdict: 'valid', keyId: trusted.keyId });
    expect(verifyDetachedSignature(image, signed(image), keys(other, trusted), trusted.keyId)).toEqual({ verdict: 'valid', keyId: trusted.keyId });
  });

  it.each(['ed25519', 'rsa', 'ec'] as const)('refuses a %s signature of a tampered image', (kind) => {
    const { trusted, signed } = keyPair(kind);
    const tampered = Buffer.from(image);
    tampered[tampered.length - 1] ^= 0x01;
    expect(verifyDetachedSignature(tampered, signed(image), keys(trusted))).toMatchObject({ verdict: 'invalid' });
  });

  it('refuses a signature made with a key that is not trusted, and says so for the named key', () => {
    const trusted = keyPair('ed25519').trusted;
    const stranger = keyPair('ed25519');
    expect(verifyDetachedSignature(image, stranger.signed(image), keys(trusted))).toEqual({
      verdict: 'invalid',
      reason: 'does not verify with any of the 1 trusted keys',
    });
    expect(verifyDetachedSignature(image, stranger.signed(image), keys(trusted), trusted.keyId)).toEqual({
      verdict: 'invalid',
      keyId: trusted.keyId,
      reason: `does not verify with key ${trusted.keyId}`,
    });
  });

  it('refuses garbage in place of a signature for every kind of key, without throwing', () => {
    const trusted = keys(keyPair('ed25519').trusted, keyPair('rsa').trusted, keyPair('ec').trusted);
    for (const garbage of [Buffer.alloc(0), Buffer.from('not a signature'), Buffer.alloc(64, 0xff), Buffer.alloc(256, 7)]) {
      expect(verifyDetachedSignature(image, garbage, trusted)).toMatchObject({ verdict: 'invalid' });
    }
  });

  it('calls an image without a signature unsigned, and a signature with no trusted key invalid', () => {
    expect(verifyDetachedSignature(image, null, keys())).toEqual({ verdict: 'unsigned' });
    const { signed } = keyPair('ed25519');
    expect(verifyDetachedSignature(image, signed(image), keys())).toEqual({ verdict: 'invalid', reason: 'no signing key is trusted' });
  });

  it('refuses to check against a key id that is not trusted', () => {
    const { trusted, signed } = keyPair('ed25519');
    expect(() => verifyDetachedSignature(image, signed(image), keys(trusted), 'ab'.repeat(32))).toThrow(
      expect.objectContaining({ code: 'BITSTREAM.KEY_UNKNOWN' }),
    );
  });
});

describe('parseSigningKey', () => {
  it('derives the same id from the same key however it is encoded', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const spki = parseSigningKey(publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const pkcs1 = parseSigningKey(publicKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    expect(pkcs1).toEqual(spki);
    expect(spki).toMatchObject({ algorithm: 'rsa-pss-sha256', keyId: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('refuses private keys, garbage, short RSA and curves other than P-256', () => {
    const ed = generateKeyPairSync('ed25519');
    const code = { code: 'BITSTREAM.KEY_INVALID' };
    expect(() => parseSigningKey(ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).toThrow(expect.objectContaining(code));
    expect(() => parseSigningKey('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n')).toThrow(expect.objectContaining(code));
    expect(() => parseSigningKey(42)).toThrow(expect.objectContaining(code));
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => parseSigningKey(short)).toThrow(expect.objectContaining(code));
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => parseSigningKey(p384)).toThrow(expect.objectContaining(code));
  });
});
