import { generateKeyPairSync } from 'node:crypto';
import type { RecordedEvent } from '../../envelope';
import type { EventStore } from '../../event-store.port';
import { AnchoredVerifier, type AnchoredVerdict } from '../../anchoring/anchored-verifier';
import { type SignedCheckpoint, signCheckpoint } from '../../anchoring/head-checkpoint';
import { chainHash, contentHash } from '../../hash-chain/hash-chain';
import { decodeStoredEvent, type StoredEvent } from '../../hash-chain/stored-event';
import type { ContractContext } from './contract-context';
import { newEvent, readAllAfter, uniqueStream, untilVisible } from './fixtures';

const keys = generateKeyPairSync('ed25519');

/**
 * The whole log as `audit verify` reads it: stored text where the store
 * offers it, else each decoded event re-encoded in its own key order (the
 * form rows written before stores kept canonical text have).
 */
async function storedLog(store: EventStore): Promise<StoredEvent[]> {
  if (!store.readAllStored) return (await readAllAfter(store, 0, undefined, 1000)).map(reencoded);
  const events: StoredEvent[] = [];
  for (let page = await store.readAllStored(0, 1000); page.length > 0; page = await store.readAllStored(page[page.length - 1].position, 1000)) {
    events.push(...page);
  }
  return events;
}

const reencoded = ({ data, metadata, ...rest }: RecordedEvent): StoredEvent => ({ ...rest, dataJson: JSON.stringify(data), metadataJson: JSON.stringify(metadata) });

/** Reverses every object's key order: equal JSON values, not canonical text. */
const reordered = (json: string): string =>
  JSON.stringify(JSON.parse(json), function (this: unknown, _key, value: unknown) {
    return value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value;
  });

const checkpointAt = (events: readonly StoredEvent[], index: number): SignedCheckpoint =>
  signCheckpoint({ position: events[index].position, hash: events[index].hash, at: new Date().toISOString() }, keys.privateKey);

function verdict(events: ReadonlyArray<RecordedEvent | StoredEvent>, checkpoints: readonly SignedCheckpoint[]): AnchoredVerdict {
  const verifier = new AnchoredVerifier(checkpoints, keys.publicKey);
  for (const event of events) if (!verifier.check(event)) break;
  return verifier.verdict();
}

/** The verdict on the stored text, after checking it equals the verdict on the same rows decoded (today's path). */
function sameVerdict(events: readonly StoredEvent[], checkpoints: readonly SignedCheckpoint[] = []): AnchoredVerdict {
  const fromStored = verdict(events, checkpoints);
  expect(fromStored).toEqual(verdict(events.map(decodeStoredEvent), checkpoints));
  return fromStored;
}

const editedAt = (events: readonly StoredEvent[], index: number, edit: Partial<StoredEvent>): StoredEvent[] =>
  events.map((event, at) => (at === index ? { ...event, ...edit } : event));

/** Re-links every event from `from` on, as a forger with write access to the store would (hashing the decoded content, as writers do). */
function rechained(events: readonly StoredEvent[], from: number): StoredEvent[] {
  const linked = events.slice(0, from);
  for (const event of events.slice(from)) {
    const prevHash = linked[linked.length - 1].hash;
    const content = contentHash(decodeStoredEvent(event));
    linked.push({ ...event, prevHash, hash: chainHash(prevHash, event.position, event.stream, event.version, content) });
  }
  return linked;
}

/**
 * `audit verify` hashes the stored text without decoding it, and decodes
 * only when that hash does not link. Every case checks the verdict equals the
 * one on the decoded events: the shortcut never changes what is found.
 */
export function storedChainContract(context: ContractContext): void {
  async function chainedLog(): Promise<StoredEvent[]> {
    const { store } = context;
    const device = uniqueStream('device');
    await store.append(device, [newEvent('inventory.DeviceDiscovered', { vendor: '10ee', pci: { slot: 3, bus: 'a1' } })], { expected: 'no_stream' });
    await store.append(device, [newEvent('inventory.DeviceEnabled', { note: 'say "hi" ✓\u2028' })], { expected: 1 });
    const last = await store.append(device, [newEvent('inventory.DeviceHealthChanged', { health: 'degraded' })], { expected: 2 });
    await untilVisible(store, last.position);
    return storedLog(store);
  }

  it('finds an intact log intact', async () => {
    const events = await chainedLog();
    expect(sameVerdict(events)).toMatchObject({ ok: true, checked: events.length });
  });

  it('finds edited data, canonical or not, and accepts data re-written in an equal form', async () => {
    const events = await chainedLog();
    const target = events.length - 3;
    const position = events[target].position;
    expect(sameVerdict(editedAt(events, target, { dataJson: '{"pci":{"bus":"a1","slot":3},"vendor":"8086"}' })).firstBreak).toMatchObject({ position, reason: 'content-changed' });
    expect(sameVerdict(editedAt(events, target, { dataJson: '{ "vendor": "8086", "pci": {"slot": 3, "bus": "a1"} }' })).firstBreak).toMatchObject({ position, reason: 'content-changed' });
    expect(sameVerdict(editedAt(events, target, { dataJson: reordered(events[target].dataJson) })).ok).toBe(true);
  });

  it('finds edited metadata', async () => {
    const events = await chainedLog();
    const target = events.length - 2;
    const metadataJson = events[target].metadataJson.replace('contract-tester', 'mallory');
    expect(sameVerdict(editedAt(events, target, { metadataJson })).firstBreak).toMatchObject({ position: events[target].position, reason: 'content-changed' });
  });

  it('accepts rows written before stores kept canonical text', async () => {
    const events = await chainedLog();
    const legacy = events.map((event) => ({ ...event, dataJson: reordered(event.dataJson), metadataJson: reordered(event.metadataJson) }));
    expect(sameVerdict(legacy)).toMatchObject({ ok: true, checked: events.length });
  });

  it('finds a cut tail and a rewrite with recomputed hashes against signed checkpoints', async () => {
    const events = await chainedLog();
    const head = events.length - 1;
    expect(sameVerdict(events.slice(0, -1), [checkpointAt(events, head)]).firstBreak).toMatchObject({ reason: 'truncated', position: events[head].position });
    const rewritten = rechained(editedAt(events, head - 1, { dataJson: '{"note":"nothing to see"}' }), head - 1);
    expect(sameVerdict(rewritten).ok).toBe(true);
    expect(sameVerdict(rewritten, [checkpointAt(events, head)]).firstBreak).toMatchObject({ reason: 'checkpoint-mismatch', position: events[head].position });
    expect(sameVerdict(events, [checkpointAt(events, head)])).toMatchObject({ ok: true, anchor: { position: events[head].position } });
  });
}
