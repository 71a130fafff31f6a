import { InMemoryEventStore, readStreamCounts, streamCounterProjection, testEvent } from '../testing';
import { AsOfRebuilds } from './as-of-rebuilds';

describe('AsOfRebuilds', () => {
  let second = 0;
  const store = new InMemoryEventStore(() => new Date(Date.UTC(2026, 10, 1, 10, 0, second++)));
  const counter = streamCounterProjection();

  beforeAll(async () => {
    for (let n = 0; n < 6; n++) await store.append(`device-${n % 2}`, [testEvent('test.Counted', { n })], { expected: 'any' });
  });

  it('answers with the read model as of a position, and as of a time (the last event recorded by then)', async () => {
    const rebuilds = new AsOfRebuilds(store);
    expect(await rebuilds.read(counter, { position: 3 }, readStreamCounts)).toEqual({ position: 3, answer: { 'device-0': 2, 'device-1': 1 } });
    expect(await rebuilds.read(counter, { time: '2026-11-01T10:00:01.500Z' }, readStreamCounts)).toEqual({ position: 2, answer: { 'device-0': 1, 'device-1': 1 } });
    expect(await rebuilds.read(counter, { time: '2025-01-01T00:00:00.000Z' }, readStreamCounts)).toEqual({ position: 0, answer: {} });
    expect((await rebuilds.read(counter, { time: '2030-01-01T00:00:00.000Z' }, readStreamCounts)).position).toBe(6);
    await rebuilds.close();
  });

  it('refuses a position beyond the head with a stable code', async () => {
    const rebuilds = new AsOfRebuilds(store);
    await expect(rebuilds.read(counter, { position: 7 }, readStreamCounts)).rejects.toMatchObject({ code: 'AUDIT.AS_OF_BEYOND_HEAD', status: 400, facts: { head: 6 } });
  });

  it('keeps the newest rebuilds and reuses them; an evicted one stays open until its reader is done', async () => {
    const rebuilds = new AsOfRebuilds(store, 1);
    const databases: unknown[] = [];
    await rebuilds.read(counter, { position: 2 }, async (db) => databases.push(db));
    await rebuilds.read(counter, { position: 2 }, async (db) => databases.push(db));
    expect(databases[0]).toBe(databases[1]);
    const answer = await rebuilds.read(counter, { position: 4 }, async (db) => {
      await rebuilds.read(counter, { position: 5 }, readStreamCounts);
      return readStreamCounts(db);
    });
    expect(answer.answer).toEqual({ 'device-0': 2, 'device-1': 2 });
    await rebuilds.close();
  });

  it('rebuilds a later position from a copy of the nearest kept one, reading only the events after it', async () => {
    const readsFrom: number[] = [];
    const counting = { headPosition: () => store.headPosition(), readAll: (options: Parameters<typeof store.readAll>[0]) => (readsFrom.push(options?.after ?? 0), store.readAll(options)) };
    const rebuilds = new AsOfRebuilds(counting);
    expect((await rebuilds.read(counter, { position: 2 }, readStreamCounts)).answer).toEqual({ 'device-0': 1, 'device-1': 1 });
    readsFrom.length = 0;
    expect((await rebuilds.read(counter, { position: 5 }, readStreamCounts)).answer).toEqual({ 'device-0': 3, 'device-1': 2 });
    expect(Math.min(...readsFrom)).toBe(2);
    // The kept earlier rebuild is a separate copy: it still answers as of 2.
    expect((await rebuilds.read(counter, { position: 2 }, readStreamCounts)).answer).toEqual({ 'device-0': 1, 'device-1': 1 });
    // An earlier position than every kept one replays from the start.
    readsFrom.length = 0;
    expect((await rebuilds.read(counter, { position: 1 }, readStreamCounts)).answer).toEqual({ 'device-0': 1 });
    expect(Math.min(...readsFrom)).toBe(0);
    await rebuilds.close();
  });
});
