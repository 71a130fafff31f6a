import { uuidV7 } from '@ledger/kernel';
import type { RecordedEvent } from '../../envelope';
import type { EventStore } from '../../event-store.port';
import { ChainVerifier, type ChainVerdict } from '../../hash-chain/chain-verifier';
import { chainHash, contentHash } from '../../hash-chain/hash-chain';
import type { ContractContext } from './contract-context';
import { metadata, newEvent, readAllAfter, uniqueStream, untilVisible } from './fixtures';

const verify = (events: readonly RecordedEvent[]): ChainVerdict => {
  const verifier = new ChainVerifier();
  for (const event of events) verifier.check(event);
  return verifier.verdict();
};

/** Positions renumbered from the first event's, as a forger covering a deletion or insertion would. */
const renumbered = (events: readonly RecordedEvent[]): RecordedEvent[] =>
  events.map((event, index) => ({ ...event, position: events[0].position + index }));

export function hashChainContract(context: ContractContext): void {
  /** The whole log (the chain starts at position 1), with a few events of this test at the end. */
  async function chainedLog(store: EventStore): Promise<RecordedEvent[]> {
    const host = uniqueStream('host');
    const device = uniqueStream('device');
    await store.append(host, [newEvent('inventory.HostRegistered', { name: 'compute-1' })], { expected: 'no_stream' });
    await store.append(device, [newEvent('inventory.DeviceDiscovered', { vendor: '10ee' }), newEvent('inventory.DeviceEnabled')], { expected: 'no_stream' });
    await store.append(host, [newEvent('inventory.HostProvisioned', { ready: true })], { expected: 1 });
    const last = await store.append(device, [newEvent('inventory.DeviceHealthChanged', { health: 'degraded' })], { expected: 2 });
    await untilVisible(store, last.position);
    return readAllAfter(store, 0, undefined, 1000);
  }

  it('verifies over everything readAll returns', async () => {
    const { store } = context;
    const events = await chainedLog(store);
    const verdict = verify(events);
    expect(verdict).toMatchObject({ ok: true, checked: events.length, headPosition: events[events.length - 1].position });
    expect(verdict.headHash).toBe(events[events.length - 1].hash);
  });

  it('records what the caller passed at append time, even if the caller changes it before the commit', async () => {
    const { store } = context;
    const stream = uniqueStream('device');
    const data = { health: 'ok', since: new Date('2026-11-22T03:00:00.000Z'), counters: [1, 2] };
    const appended = store.append(stream, [newEvent('inventory.DeviceHealthChanged', data)], { expected: 'no_stream' });
    data.health = 'changed-after-append';
    data.counters.push(3);
    const { position } = await appended;
    await untilVisible(store, position);
    const [recorded] = await store.readStream(stream);
    expect(recorded.data).toEqual({ health: 'ok', since: '2026-11-22T03:00:00.000Z', counters: [1, 2] });
    expect(recorded.hash).toBe(chainHash(recorded.prevHash, recorded.position, stream, 1, contentHash(recorded)));
  });

  it('detects a changed event', async () => {
    const events = await chainedLog(context.store);
    const target = events.length - 3;
    const changedData = events.map((event, index) => (index === target ? { ...event, data: { vendor: '8086' } } : event));
    expect(verify(changedData).firstBreak).toMatchObject({ position: events[target].position, reason: 'content-changed' });
    const changedActor = events.map((event, index) =>
      index === target ? { ...event, metadata: { ...event.metadata, actor: { ...event.metadata.actor, user: 'mallory' } } } : event,
    );
    expect(verify(changedActor).firstBreak).toMatchObject({ position: events[target].position, reason: 'content-changed' });
    const movedToAnotherStream = events.map((event, index) => (index === target ? { ...event, stream: uniqueStream('device') } : event));
    expect(verify(movedToAnotherStream).firstBreak?.reason).toBe('content-changed');
  });

  it('detects a deleted event', async () => {
    const events = await chainedLog(context.store);
    const deleted = events.filter((_, index) => index !== events.length - 3);
    expect(verify(deleted).ok).toBe(false);
    expect(verify(renumbered(deleted)).firstBreak).toMatchObject({ reason: 'predecessor-mismatch' });
    expect(verify(events.slice(0, -1)).ok).toBe(true);
  });

  it('detects an inserted event, even one hashed as if it belonged', async () => {
    const events = await chainedLog(context.store);
    const at = events.length - 2;
    const previous = events[at - 1];
    const content = { id: uuidV7(), type: 'inventory.DeviceEnabled', recordedAt: new Date().toISOString(), data: {}, metadata: metadata() };
    const position = previous.position + 1;
    const forged: RecordedEvent = {
      ...content,
      stream: previous.stream,
      version: previous.version + 1,
      position,
      prevHash: previous.hash,
      hash: chainHash(previous.hash, position, previous.stream, previous.version + 1, contentHash(content)),
    };
    const inserted = [...events.slice(0, at), forged, ...events.slice(at)];
    expect(verify(inserted).ok).toBe(false);
    expect(verify(renumbered(inserted)).firstBreak).toMatchObject({ position: position + 1, reason: 'predecessor-mismatch' });
  });

  it('detects reordered events', async () => {
    const events = await chainedLog(context.store);
    const a = events.length - 3;
    const swapped = [...events];
    [swapped[a], swapped[a + 1]] = [swapped[a + 1], swapped[a]];
    expect(verify(swapped).firstBreak).toMatchObject({ position: events[a + 1].position, reason: 'position-gap' });
    expect(verify(renumbered(swapped)).firstBreak).toMatchObject({ position: events[a].position, reason: 'predecessor-mismatch' });
  });
}
