import { generateKeyPairSync } from 'node:crypto';
import { canonicalJson } from '@ledger/kernel';
import type { RecordedEvent } from '../envelope';
import { chainHash, contentHash, GENESIS_HASH } from '../hash-chain/hash-chain';
import type { StoredEvent } from '../hash-chain/stored-event';
import { type AnchoredVerdict, AnchoredVerifier } from './anchored-verifier';
import { checkRange } from './check-range';
import { type SignedCheckpoint, signCheckpoint } from './head-checkpoint';
import { joinRanges } from './join-ranges';
import { genuineCheckpoints, splitLog } from './parallel-verify';

const keys = generateKeyPairSync('ed25519');
const forger = generateKeyPairSync('ed25519');
const metadata = { correlationId: 'c', causationId: null, actor: { user: 'u', project: 'p', roles: ['admin'] }, schemaVersion: 1 };
const LENGTH = 20;

const stored = ({ data, metadata: meta, ...rest }: RecordedEvent): StoredEvent => ({ ...rest, dataJson: canonicalJson(data), metadataJson: canonicalJson(meta) });
const decoded = (event: StoredEvent): RecordedEvent => ({ ...event, data: JSON.parse(event.dataJson), metadata: JSON.parse(event.metadataJson) });

/** Re-links events[from..] onto events[from - 1], positions as they stand: what a forger with write access recomputes. */
function rechained(events: readonly StoredEvent[], from = 0): StoredEvent[] {
  const linked = events.slice(0, from);
  for (const event of events.slice(from)) {
    const prevHash = linked.length === 0 ? GENESIS_HASH : linked[linked.length - 1].hash;
    linked.push({ ...event, prevHash, hash: chainHash(prevHash, event.position, event.stream, event.version, contentHash(decoded(event))) });
  }
  return linked;
}

const log: StoredEvent[] = rechained(
  Array.from({ length: LENGTH }, (_, index) =>
    stored({
      id: `event-${index + 1}`,
      type: 'inventory.DeviceHealthChanged',
      stream: `device-${index % 3}`,
      version: Math.floor(index / 3) + 1,
      position: index + 1,
      recordedAt: new Date(Date.UTC(2026, 10, 22, 0, index)).toISOString(),
      data: { health: index % 2 ? 'ok' : 'degraded' },
      metadata,
      prevHash: '',
      hash: '',
    }),
  ),
);

const signedAt = (events: readonly StoredEvent[], position: number, key = keys.privateKey): SignedCheckpoint =>
  signCheckpoint({ position, hash: events[position - 1].hash, at: `2026-11-22T01:${String(position).padStart(2, '0')}:00.000Z` }, key);

const edited = (position: number, edit: Partial<StoredEvent>): StoredEvent[] => log.map((event) => (event.position === position ? { ...event, ...edit } : event));
const without = (position: number): StoredEvent[] => log.filter((event) => event.position !== position);
const renumbered = (events: readonly StoredEvent[]): StoredEvent[] => events.map((event, index) => ({ ...event, position: index + 1 }));

/** Logs as a store reads them (position order), each with the checkpoints it is checked against. */
const cases: Array<[string, StoredEvent[], SignedCheckpoint[]]> = [
  ['an intact log', log, []],
  ['an intact log under checkpoints', log, [signedAt(log, 6), signedAt(log, 13)]],
  ...[1, 7, 8, 9, LENGTH].map((position): [string, StoredEvent[], SignedCheckpoint[]] => [
    `data edited at ${position}`,
    edited(position, { dataJson: '{"health":"failed"}' }),
    [],
  ]),
  ...[1, 8, 9, LENGTH].map((position): [string, StoredEvent[], SignedCheckpoint[]] => [`a prevHash edited at ${position}`, edited(position, { prevHash: log[3].hash }), []]),
  ...[1, 8, 9, 10].map((position): [string, StoredEvent[], SignedCheckpoint[]] => [`event ${position} deleted`, without(position), []]),
  ['event 9 deleted and the rest renumbered', renumbered(without(9)), []],
  ['event 9 deleted, the rest renumbered and re-linked', rechained(renumbered(without(9)), 8), []],
  ['event 9 deleted, re-linked, under a checkpoint at 12', rechained(renumbered(without(9)), 8), [signedAt(log, 12)]],
  ['event 9 read twice', [...log.slice(0, 9), log[8], ...log.slice(9)], []],
  ['the tail cut at 15 under a checkpoint at 18', log.slice(0, 15), [signedAt(log, 18)]],
  ['data rewritten at 11 with every later hash recomputed', rechained(edited(11, { dataJson: '{"health":"fine"}' }), 10), []],
  ['data rewritten at 11, re-linked, under a checkpoint at 14', rechained(edited(11, { dataJson: '{"health":"fine"}' }), 10), [signedAt(log, 14)]],
  ['a checkpoint forged with another key', log, [signedAt(log, 5), signedAt(log, 9, forger.privateKey)]],
];

function walked(events: readonly StoredEvent[], checkpoints: readonly SignedCheckpoint[]): AnchoredVerdict {
  const verifier = new AnchoredVerifier(checkpoints, keys.publicKey);
  for (const event of events) if (!verifier.check(event)) break;
  return verifier.verdict();
}

async function* batchesOf(events: readonly StoredEvent[]): AsyncIterable<StoredEvent[]> {
  for (let at = 0; at < events.length; at += 4) yield events.slice(at, at + 4);
}

/** Checked as the workers do: each range (after, upto] read in position order and checked on its own, then joined. */
async function inRanges(events: readonly StoredEvent[], checkpoints: readonly SignedCheckpoint[], ranges: ReadonlyArray<{ after: number; upto: number }>): Promise<AnchoredVerdict> {
  const outcomes = await Promise.all(
    ranges.map(({ after, upto }) => {
      const inside = genuineCheckpoints(checkpoints, keys.publicKey).filter((checkpoint) => checkpoint.position > after && checkpoint.position <= upto);
      const read = events.filter((event) => event.position > after && event.position <= upto);
      return checkRange(batchesOf(read), (start) => new AnchoredVerifier(inside, 'genuine', start));
    }),
  );
  return joinRanges(outcomes, new AnchoredVerifier(checkpoints, keys.publicKey));
}

/** Every cut in two, and the even cuts in 3 and 5 a parallel verify makes. */
function splits(head: number): Array<Array<{ after: number; upto: number }>> {
  const halves = Array.from({ length: head + 1 }, (_, cut) => [
    { after: 0, upto: cut },
    { after: cut, upto: head },
  ]);
  return [...halves, splitLog(head, 3), splitLog(head, 5)];
}

describe('joinRanges', () => {
  it.each(cases)('gives the single walk’s verdict on %s, wherever the log is cut into ranges', async (_name, events, checkpoints) => {
    const expected = walked(events, checkpoints);
    const head = Math.max(0, ...events.map((event) => event.position));
    for (const ranges of splits(head)) {
      expect({ ranges, verdict: await inRanges(events, checkpoints, ranges) }).toEqual({ ranges, verdict: expected });
    }
  });

  it('finds what the cases are about', async () => {
    expect(walked(log, [])).toMatchObject({ ok: true, checked: LENGTH });
    expect(walked(edited(9, { dataJson: '{"health":"failed"}' }), []).firstBreak).toMatchObject({ position: 9, reason: 'content-changed' });
    expect(walked(without(9), []).firstBreak).toMatchObject({ position: 10, reason: 'position-gap' });
    expect(walked(renumbered(without(9)), []).firstBreak).toMatchObject({ position: 9, reason: 'predecessor-mismatch' });
    expect(walked(log.slice(0, 15), [signedAt(log, 18)]).firstBreak).toMatchObject({ position: 16, reason: 'truncated' });
    expect(walked(rechained(edited(11, { dataJson: '{"health":"fine"}' }), 10), [signedAt(log, 14)]).firstBreak).toMatchObject({ position: 14, reason: 'checkpoint-mismatch' });
    expect(walked(log, [signedAt(log, 9, forger.privateKey)]).firstBreak).toMatchObject({ position: 9, reason: 'checkpoint-forged' });
  });

  it('is an intact empty log when no range held an event', async () => {
    expect(await inRanges([], [], splitLog(0, 2))).toEqual(walked([], []));
  });
});
