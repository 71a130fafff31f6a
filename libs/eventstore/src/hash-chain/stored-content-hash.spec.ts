import { canonicalJson } from '@ledger/kernel';
import { ChainVerifier } from './chain-verifier';
import { chainHash, contentHash, GENESIS_HASH } from './hash-chain';
import { storedContentHash } from './stored-content-hash';
import type { StoredEvent } from './stored-event';

const metadata = { correlationId: 'c', causationId: null, actor: { user: 'u', project: 'p', roles: ['admin'] }, schemaVersion: 1 };

/** One event stored as writers store it now: canonical text, linked at position 1. */
function stored(data: unknown): StoredEvent {
  const content = { id: '0193a0b2-0000-7000-8000-000000000001', type: 'test.Happened', recordedAt: '2026-11-27T06:00:00.000Z', data, metadata };
  const hash = chainHash(GENESIS_HASH, 1, 'test-1', 1, contentHash(content));
  return { ...content, stream: 'test-1', version: 1, position: 1, prevHash: GENESIS_HASH, hash, dataJson: canonicalJson(data), metadataJson: canonicalJson(metadata) };
}

const verdictOf = (event: StoredEvent) => {
  const verifier = new ChainVerifier();
  verifier.check(event);
  return verifier.verdict();
};

describe('storedContentHash', () => {
  it('is contentHash for canonical text', () => {
    const data = { b: [1, { d: null, c: 'say ✓\u2028' }], a: -0, z: 1e21 };
    expect(storedContentHash(stored(data))).toBe(contentHash({ ...stored(data), data, metadata }));
  });

  it('leaves text with escapes to the decoding check, which links it', () => {
    const event = stored({ c: 'say "hi"\\' });
    expect(storedContentHash(event)).toBeUndefined();
    expect(verdictOf(event).ok).toBe(true);
  });

  it('declines text that is not canonical: another key order, or a column cut short', () => {
    expect(storedContentHash({ ...stored({ a: 1, b: 2 }), dataJson: '{"b":2,"a":1}' })).toBeUndefined();
    expect(storedContentHash({ ...stored({ a: { b: 0 } }), dataJson: '{"a":{"b":0' })).toBeUndefined();
  });

  it('does not mind the metadata key inside data', () => {
    expect(storedContentHash(stored({ a: { id: 'p', metadata: 1 } }))).toBeDefined();
  });

  it('declines columns that are not text', () => {
    expect(storedContentHash({ ...stored({}), dataJson: Buffer.from('{}') as unknown as string })).toBeUndefined();
  });
});

describe('ChainVerifier over stored text', () => {
  it('finds data and id re-split into one another, though the concatenation is unchanged', () => {
    const event = stored({ a: { b: 0, id: 'p', metadata: 1 }, c: 2 });
    expect(verdictOf(event).ok).toBe(true);
    const resplit = { ...event, dataJson: '{"a":{"b":0', id: 'p', metadataJson: `1},"c":2},"id":${JSON.stringify(event.id)},"metadata":${event.metadataJson}` };
    expect(verdictOf(resplit).firstBreak).toMatchObject({ position: 1, reason: 'content-changed' });
  });

  it('finds a column that is not JSON changed rather than failing', () => {
    expect(verdictOf({ ...stored({ a: 1 }), dataJson: '{"a":' }).firstBreak).toMatchObject({ reason: 'content-changed' });
  });
});
