import { mayBeLoaded, signatureStanding } from './bitstream-trust';
import { KEY_ID } from './testing/programming-events';

const valid = { verdict: 'valid', keyId: KEY_ID } as const;

describe('bitstream trust', () => {
  it('keeps a valid verdict while its key is trusted, and says revoked once it is not', () => {
    expect(signatureStanding(valid, new Set([KEY_ID]))).toEqual(valid);
    expect(signatureStanding(valid, new Set(['ef'.repeat(32)]))).toEqual({ verdict: 'revoked', keyId: KEY_ID });
    expect(signatureStanding({ verdict: 'unsigned' }, new Set())).toEqual({ verdict: 'unsigned' });
  });

  it('loads a valid signature by a trusted key, an unsigned image only while allowed, never a revoked key\'s image', () => {
    expect(mayBeLoaded(valid, false)).toBe(true);
    expect(mayBeLoaded({ verdict: 'revoked', keyId: KEY_ID }, true)).toBe(false);
    expect(mayBeLoaded({ verdict: 'unsigned' }, false)).toBe(false);
    expect(mayBeLoaded({ verdict: 'unsigned' }, true)).toBe(true);
    expect(mayBeLoaded({ verdict: 'invalid', reason: 'tampered' }, true)).toBe(false);
  });
});
