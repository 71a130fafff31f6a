import type { ContractContext } from './contract-context';
import { newEvent, positionsAfter, positionsOf, probe, readAllAfter, uniqueCategory, uniqueStream, untilVisible } from './fixtures';

export function readAllContract(context: ContractContext): void {
  it('reads the global log in position order, gap-free, after a position', async () => {
    const { store } = context;
    const base = await probe(store);
    const first = uniqueStream();
    const second = uniqueStream();
    await store.append(first, [newEvent(), newEvent()], { expected: 'no_stream' });
    await store.append(second, [newEvent()], { expected: 'no_stream' });
    await untilVisible(store, (await store.append(first, [newEvent()], { expected: 2 })).position);

    const all = await store.readAll({ after: base });
    expect(positionsOf(all.events)).toEqual(positionsAfter(base, 4));
    expect(all.events.map((event) => [event.stream, event.version])).toEqual([
      [first, 1],
      [first, 2],
      [second, 1],
      [first, 3],
    ]);
    expect(all.position).toBe(base + 4);

    const tail = await store.readAll({ after: base + 2 });
    expect(positionsOf(tail.events)).toEqual([base + 3, base + 4]);
  });

  it('scans at most `max` positions and returns where it stopped', async () => {
    const { store } = context;
    const base = await probe(store);
    await untilVisible(store, (await store.append(uniqueStream(), [1, 2, 3, 4, 5].map(() => newEvent()), { expected: 'no_stream' })).position);
    const page = await store.readAll({ after: base, max: 2 });
    expect(positionsOf(page.events)).toEqual([base + 1, base + 2]);
    expect(page.position).toBe(base + 2);
    const next = await store.readAll({ after: page.position, max: 2 });
    expect(positionsOf(next.events)).toEqual([base + 3, base + 4]);
  });

  it('returns the same position and no events at the head', async () => {
    const { store } = context;
    const head = await probe(store);
    await untilVisible(store, head);
    expect(await store.readAll({ after: head })).toEqual({ events: [], position: head });
  });

  it('filters by category and by type, moving the position past what it dropped', async () => {
    const { store } = context;
    const base = await probe(store);
    const devices = uniqueCategory('device');
    const hosts = uniqueCategory('host');
    await store.append(uniqueStream(hosts), [newEvent('inventory.HostRegistered'), newEvent('inventory.HostProvisioned')], { expected: 'no_stream' });
    await store.append(uniqueStream(devices), [newEvent('inventory.DeviceDiscovered')], { expected: 'no_stream' });
    await untilVisible(store, (await store.append(uniqueStream(hosts), [newEvent('inventory.HostRegistered')], { expected: 'no_stream' })).position);

    const byCategory = await store.readAll({ after: base, filter: { categories: [devices] } });
    expect(byCategory.events.map((event) => event.type)).toEqual(['inventory.DeviceDiscovered']);
    expect(byCategory.position).toBe(base + 4);

    const byType = await store.readAll({ after: base, filter: { types: ['inventory.HostRegistered'] } });
    expect(positionsOf(byType.events)).toEqual([base + 1, base + 4]);

    const both = await store.readAll({ after: base, filter: { categories: [hosts], types: ['inventory.HostProvisioned', 'inventory.DeviceDiscovered'] } });
    expect(positionsOf(both.events)).toEqual([base + 2]);

    const droppedAll = await store.readAll({ after: base, max: 2, filter: { categories: [devices] } });
    expect(droppedAll).toEqual({ events: [], position: base + 2 });

    const filteredReader = await readAllAfter(store, base, { categories: [devices, hosts], types: ['inventory.HostRegistered'] }, 1);
    expect(positionsOf(filteredReader)).toEqual([base + 1, base + 4]);
  });

  it('reports the head position: the last position readers can see', async () => {
    const { store } = context;
    const base = await probe(store);
    const result = await store.append(uniqueStream(), [newEvent(), newEvent(), newEvent()], { expected: 'no_stream' });
    expect(result.position).toBe(base + 3);
    await untilVisible(store, result.position);
    expect(await store.headPosition()).toBe(base + 3);
  });
}
