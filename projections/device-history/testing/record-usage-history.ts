import type { RecordedEvent } from '@ledger/eventstore';
import { InMemoryEventStore } from '@ledger/processing/testing';
import { NotedPositionTimes } from '../usage/resolve-log-point';
import { actor, appendTwoTenancies, DEPLOYABLE, DEVICE, HANDLE } from './tenancy-history';

const META = { correlationId: 'c', causationId: null, actor: actor('admin', null), schemaVersion: 1 };

/**
 * One event a second from 10:00:00: the device (80 GiB) discovered at 1,
 * p1 claims it at 5 (10:00:04) and releases it at 9 (10:00:08), p2 claims
 * it at 13 (10:00:12) and holds it; at 15 (10:00:14) it reports Xid 79.
 */
export async function recordedHistory(): Promise<{ events: RecordedEvent[]; positions: NotedPositionTimes }> {
  let second = 0;
  const store = new InMemoryEventStore(() => new Date(Date.UTC(2026, 10, 1, 10, 0, second++)));
  const discovered = { hostname: 'h1', device: { uuid: DEVICE, capacity: { memoryGiB: 80 }, deployables: [] } };
  await store.append('host-h1', [{ type: 'inventory.DeviceDiscovered', data: discovered, metadata: META }], { expected: 'no_stream' });
  await appendTwoTenancies(store, { device: DEVICE, deployable: DEPLOYABLE, handle: HANDLE });
  const health = { deviceUuid: DEVICE, health: 'degraded', reason: 'Xid 79', observedAt: '2026-11-01T10:00:14.000Z' };
  await store.append(`device-${DEVICE}`, [{ type: 'inventory.DeviceHealthChanged', data: health, metadata: META }], { expected: 'any' });
  const { events } = await store.readAll({ max: 1000 });
  const positions = new NotedPositionTimes();
  for (const event of events) positions.note(event);
  return { events, positions };
}
