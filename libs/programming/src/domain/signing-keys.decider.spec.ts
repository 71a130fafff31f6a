import { deciderSpec } from '@ledger/eventstore/testing';
import { signingKeysDecider } from './signing-keys.decider';
import { AT, KEY_ID, keyRevoked, keyTrusted } from './testing/programming-events';

const spec = deciderSpec(signingKeysDecider);
const trust = (keyId = KEY_ID, label: string | null = 'release') => ({ type: 'TrustSigningKey', ...keyTrusted(keyId).data, label }) as const;
const revoke = (keyId = KEY_ID) => ({ type: 'RevokeSigningKey', keyId, revokedAt: AT }) as const;

describe('signingKeysDecider', () => {
  it('trusts a key once; trusting it again appends nothing', () => {
    spec.given([]).when(trust()).then([keyTrusted()]);
    spec.given([keyTrusted()]).when(trust()).then([]);
    expect([...spec.given([keyTrusted(), keyTrusted('ef'.repeat(32))]).state.trusted.keys()]).toEqual([KEY_ID, 'ef'.repeat(32)]);
  });

  it('revokes a trusted key, and a revoked key can be trusted again', () => {
    spec.given([keyTrusted()]).when(revoke()).then([keyRevoked()]);
    expect(spec.given([keyTrusted(), keyRevoked()]).state.trusted.size).toBe(0);
    spec.given([keyTrusted(), keyRevoked()]).when(trust()).then([keyTrusted()]);
  });

  it('refuses to revoke a key that is not trusted (never, or revoked already)', () => {
    spec.given([]).when(revoke()).thenThrows('BITSTREAM.KEY_UNKNOWN', { keyId: KEY_ID });
    spec.given([keyTrusted(), keyRevoked()]).when(revoke()).thenThrows('BITSTREAM.KEY_UNKNOWN');
  });

  it('refuses a malformed key id or label', () => {
    spec.given([]).when(trust('KEY')).thenThrows('BITSTREAM.INVALID', { path: 'keyId' });
    spec.given([]).when(trust(KEY_ID, '')).thenThrows('BITSTREAM.INVALID', { path: 'label' });
  });
});
