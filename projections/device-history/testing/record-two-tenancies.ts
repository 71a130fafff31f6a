import type { RecordedEvent } from '@ledger/eventstore';
import { InMemoryEventStore } from '@ledger/processing/testing';
import { actor, appendTwoTenancies, DEPLOYABLE, DEVICE, HANDLE } from './tenancy-history';

/** The device discovered, then appendTwoTenancies, in an in-memory log one second apart. */
export async function recordTwoTenancies(): Promise<RecordedEvent[]> {
  let second = 0;
  const store = new InMemoryEventStore(() => new Date(Date.UTC(2026, 10, 1, 10, 0, second++)));
  await store.append('host-h1', [{ type: 'inventory.DeviceDiscovered', data: { hostname: 'h1', device: { uuid: DEVICE } }, metadata: { correlationId: 'c', causationId: null, actor: actor('admin', null), schemaVersion: 1 } }], { expected: 'no_stream' });
  await appendTwoTenancies(store, { device: DEVICE, deployable: DEPLOYABLE, handle: HANDLE });
  return (await store.readAll({ max: 1000 })).events;
}
