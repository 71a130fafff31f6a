import { generateKeyPairSync } from 'node:crypto';
import type { RecordedEvent } from '../envelope';
import { ChainVerifier } from '../hash-chain/chain-verifier';
import { chainHash, contentHash, GENESIS_HASH } from '../hash-chain/hash-chain';
import { AnchoredVerifier } from './anchored-verifier';
import { type SignedCheckpoint, signCheckpoint } from './head-checkpoint';

const keys = generateKeyPairSync('ed25519');
const metadata = { correlationId: 'c', causationId: null, actor: { user: 'u', project: 'p', roles: ['admin'] }, schemaVersion: 1 };

/** Links events as the store does, from `events[0]`'s predecessor on: what a forger with write access recomputes. */
function rechain(events: readonly RecordedEvent[]): RecordedEvent[] {
  let prevHash = GENESIS_HASH;
  return events.map((event, index) => {
    const position = index + 1;
    const hash = chainHash(prevHash, position, event.stream, event.version, contentHash(event));
    const linked = { ...event, position, prevHash, hash };
    prevHash = hash;
    return linked;
  });
}

function generatedLog(length: number): RecordedEvent[] {
  const raw = Array.from({ length }, (_, index) => ({
    id: `event-${index + 1}`,
    type: 'inventory.DeviceHealthChanged',
    stream: `device-${index % 3}`,
    version: Math.floor(index / 3) + 1,
    position: 0,
    recordedAt: new Date(Date.UTC(2026, 10, 22, 0, index)).toISOString(),
    data: { health: index % 2 ? 'ok' : 'degraded' },
    metadata,
    prevHash: '',
    hash: '',
  }));
  return rechain(raw);
}

const checkpointAt = (events: readonly RecordedEvent[], position: number): SignedCheckpoint =>
  signCheckpoint({ position, hash: events[position - 1].hash, at: `2026-11-22T01:${String(position).padStart(2, '0')}:00.000Z` }, keys.privateKey);

function verify(events: readonly RecordedEvent[], checkpoints: readonly SignedCheckpoint[]) {
  const verifier = new AnchoredVerifier(checkpoints, keys.publicKey);
  for (const event of events) if (!verifier.check(event)) break;
  return verifier.verdict();
}

function chainOnly(events: readonly RecordedEvent[]) {
  const verifier = new ChainVerifier();
  for (const event of events) if (!verifier.check(event)) break;
  return verifier.verdict();
}

const LOG = generatedLog(30);
/** Signed every 10 events, as a cadence would; the last one at the head. */
const CHECKPOINTS = [10, 20, 30].map((position) => checkpointAt(LOG, position));
const edited = (at: number) => LOG.map((event) => (event.position === at ? { ...event, data: { health: 'forged' } } : event));
const without = (at: number) => LOG.filter((event) => event.position !== at);
const forgedEvent = { ...LOG[0], id: 'forged', stream: 'device-9', version: 1, data: { health: 'forged' } };

/** Each tampering, whether it keeps the plain chain valid (only the signature can catch it), and where it must be caught. */
const TAMPERINGS: ReadonlyArray<{ name: string; log: RecordedEvent[]; chainStillValid: boolean; position: number; reason: string }> = [
  { name: 'edit one event', log: edited(14), chainStillValid: false, position: 14, reason: 'content-changed' },
  { name: 'edit one event, recompute every later hash', log: rechain(edited(14)), chainStillValid: true, position: 20, reason: 'checkpoint-mismatch' },
  { name: 'delete one event', log: without(14), chainStillValid: false, position: 15, reason: 'position-gap' },
  { name: 'delete one event, renumber and recompute', log: rechain(without(14)), chainStillValid: true, position: 20, reason: 'checkpoint-mismatch' },
  { name: 'insert one event', log: [...LOG.slice(0, 13), forgedEvent, ...LOG.slice(13)], chainStillValid: false, position: 1, reason: 'position-out-of-order' },
  { name: 'insert one event, renumber and recompute', log: rechain([...LOG.slice(0, 13), forgedEvent, ...LOG.slice(13)]), chainStillValid: true, position: 20, reason: 'checkpoint-mismatch' },
  { name: 'swap two events', log: [...LOG.slice(0, 13), LOG[14], LOG[13], ...LOG.slice(15)], chainStillValid: false, position: 15, reason: 'position-gap' },
  { name: 'swap two events, renumber and recompute', log: rechain([...LOG.slice(0, 13), LOG[14], LOG[13], ...LOG.slice(15)]), chainStillValid: true, position: 20, reason: 'checkpoint-mismatch' },
  { name: 'edit the checkpointed head, recompute', log: rechain(edited(30)), chainStillValid: true, position: 30, reason: 'checkpoint-mismatch' },
  { name: 'cut the tail', log: LOG.slice(0, 24), chainStillValid: true, position: 25, reason: 'truncated' },
  { name: 'cut the tail to nothing', log: [], chainStillValid: true, position: 1, reason: 'truncated' },
  { name: 'rewrite everything from the start', log: rechain(edited(1)), chainStillValid: true, position: 10, reason: 'checkpoint-mismatch' },
];

describe('AnchoredVerifier: a chain checked against signed head checkpoints', () => {
  it('passes the untouched log, anchored at its head', () => {
    expect(verify(LOG, CHECKPOINTS)).toMatchObject({ ok: true, checked: 30, anchor: { position: 30 }, unanchored: 0, checkpoints: 3 });
  });

  it.each(TAMPERINGS)('detects: $name (at $position, $reason)', ({ log, chainStillValid, position, reason }) => {
    expect(chainOnly(log).ok).toBe(chainStillValid);
    const verdict = verify(log, CHECKPOINTS);
    expect(verdict.ok).toBe(false);
    expect(verdict.firstBreak).toMatchObject({ position, reason });
  });

  it('refuses a checkpoint signed with another key, or altered after signing', () => {
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const forged = signCheckpoint({ position: 24, hash: LOG[23].hash, at: '2026-11-22T02:00:00.000Z' }, stranger);
    expect(verify(LOG.slice(0, 24), [...CHECKPOINTS.slice(0, 2), forged]).firstBreak).toMatchObject({ position: 24, reason: 'checkpoint-forged' });
    const moved = { ...CHECKPOINTS[2], position: 29, hash: LOG[28].hash };
    expect(verify(LOG.slice(0, 29), [...CHECKPOINTS.slice(0, 2), moved]).firstBreak).toMatchObject({ position: 29, reason: 'checkpoint-forged' });
  });

  it('catches two genuine checkpoints that disagree: the log was rewritten between two signings', () => {
    const rewritten = rechain(edited(5));
    const before = checkpointAt(LOG, 20);
    const after = checkpointAt(rewritten, 20);
    expect(verify(rewritten, [before, after]).firstBreak).toMatchObject({ position: 20, reason: 'checkpoint-mismatch' });
  });

  // The limit, stated: events after the newest checkpoint are protected only
  // by the unkeyed chain until the next one is signed (LEDGER_CHECKPOINT_SECONDS).
  it('cannot see a cut or a rewrite after the newest checkpoint, and says how much is unanchored', () => {
    const anchoredAt20 = CHECKPOINTS.slice(0, 2);
    expect(verify(LOG.slice(0, 27), anchoredAt20)).toMatchObject({ ok: true, anchor: { position: 20 }, unanchored: 7 });
    expect(verify(rechain(edited(25)), anchoredAt20)).toMatchObject({ ok: true, unanchored: 10 });
  });

  it('without a public key or a checkpoint, is the plain chain and reports everything unanchored', () => {
    expect(new AnchoredVerifier(CHECKPOINTS, undefined).verdict()).toMatchObject({ ok: true, checkpoints: 0 });
    expect(verify(LOG.slice(0, 24), [])).toMatchObject({ ok: true, unanchored: 24, anchor: undefined });
  });
});
