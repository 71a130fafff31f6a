import { isUuid, uuidV7 } from '@ledger/kernel';
import type { EventMetadata } from '../../envelope';
import { ChainVerifier } from '../../hash-chain/chain-verifier';
import type { ContractContext } from './contract-context';
import { contractActor, newEvent, probe, readAllAfter, uniqueStream, untilVisible } from './fixtures';

export function envelopeContract(context: ContractContext): void {
  it('round-trips ids, types, data and metadata exactly', async () => {
    const { store } = context;
    const base = await probe(store);
    const stream = uniqueStream('device');
    const id = uuidV7();
    const meta: EventMetadata = {
      correlationId: uuidV7(),
      causationId: uuidV7(),
      actor: { user: 'operator@example.org', project: null, roles: ['admin', 'service'] },
      schemaVersion: 3,
    };
    const data = {
      pciAddress: '0000:3b:00.0',
      vfs: [{ index: 0, mac: null }, { index: 1, mac: 'fa:16:3e:00:00:01' }],
      nested: { deep: { deeper: [1, 2.5, -3e-7, 12345678901234] } },
      flags: { sriov: true, fpga: false },
      label: 'Größe — 加速器 🚀 "quoted" \\ back',
      empty: {},
      none: [],
    };
    const before = Date.now();
    const { position } = await store.append(stream, [{ id, type: 'inventory.DeviceDiscovered', data, metadata: meta }], { expected: 'no_stream' });
    const after = Date.now();

    const [read] = await store.readStream(stream);
    expect(read).toMatchObject({ id, type: 'inventory.DeviceDiscovered', stream, version: 1, position: base + 1 });
    expect(read.data).toEqual(data);
    expect(read.metadata).toEqual(meta);
    expect(read.recordedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(read.recordedAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(read.recordedAt)).toBeLessThanOrEqual(after);
    expect(read.prevHash).toMatch(/^[0-9a-f]{64}$/);
    expect(read.hash).toMatch(/^[0-9a-f]{64}$/);
    await untilVisible(store, position);
    expect((await store.readAll({ after: base })).events).toEqual([read]);
  });

  it('gives events without an id a fresh UUIDv7', async () => {
    const stream = uniqueStream();
    await context.store.append(stream, [newEvent(), newEvent()], { expected: 'no_stream' });
    const ids = (await context.store.readStream(stream)).map((event) => event.id);
    expect(ids.every((id) => isUuid(id) && id[14] === '7')).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });

  it('stores data in its JSON form, so what is read back is what was hashed', async () => {
    const { store } = context;
    const stream = uniqueStream();
    const at = new Date('2026-01-02T03:04:05.678Z');
    const { position } = await store.append(stream, [newEvent('test.Normalised', { at, dropped: undefined, kept: 1, list: [undefined] })], {
      expected: 'no_stream',
    });
    const [read] = await store.readStream(stream);
    expect(read.data).toEqual({ at: '2026-01-02T03:04:05.678Z', kept: 1, list: [null] });
    expect(read.metadata.actor).toEqual(contractActor);
    await untilVisible(store, position);
    const verifier = new ChainVerifier();
    for (const event of await readAllAfter(store, 0, undefined, 1000)) verifier.check(event);
    expect(verifier.verdict().ok).toBe(true);
  });

  it('round-trips scalar data', async () => {
    const stream = uniqueStream();
    const values = ['text', 42, true, null, [1, 'two']];
    await context.store.append(stream, values.map((value) => newEvent('test.Scalar', value)), { expected: 'no_stream' });
    expect((await context.store.readStream(stream)).map((event) => event.data)).toEqual(values);
  });
}
