import type { RecordedEvent } from '@ledger/eventstore';
import { deviceUuidOf } from '@ledger/inventory';
import { openSqliteSqlDatabase } from '@ledger/processing';
import { oneBatch } from '@ledger/processing/testing';
import { a100, x710 } from '../../libs/inventory/src/domain/testing/host-report.fixtures';
import { InventoryQueries } from './inventory.queries';
import { writeLiveView } from './live-view/write-live-view';
import { applyBatches, expectBatchingChangesNothing } from './testing/inventory-batches';
import { recordHostHistory } from './testing/inventory-history';

const hostname = 'compute-9';
const gpu = deviceUuidOf(hostname, '0000:3b:00.0');
const typesOf = (events: readonly RecordedEvent[]) => events.map((event) => event.type.replace('inventory.', ''));
const health = (level: 'ok' | 'degraded' | 'failed', reason: string | null, observedAt: string) =>
  ({ type: 'RecordDeviceHealth', deviceUuid: gpu, health: level, reason, observedAt }) as const;
const lost = (lastSeenAt: string, detectedAt: string) => ({ type: 'MarkAgentLost', hostname, lastSeenAt, detectedAt }) as const;
const seen = (seenAt: string) => ({ type: 'RecordAgentSeen', hostname, seenAt }) as const;

describe('inventoryProjection: device health, agent liveness and fencing', () => {
  it('keeps the recorded health through a removal and rediscovery, in any batching', async () => {
    const events = await recordHostHistory(hostname, [
      { report: [a100('0000:3b:00.0'), x710('0000:af:00.0')] },
      health('degraded', 'ECC double-bit errors', '2026-03-01T10:00:00.000Z'),
      health('failed', 'Xid 79', '2026-03-01T10:00:15.000Z'),
      { report: [x710('0000:af:00.0')] },
      { report: [a100('0000:3b:00.0'), x710('0000:af:00.0')] },
    ]);
    expect(typesOf(events)).toEqual(['HostRegistered', 'DeviceDiscovered', 'DeviceDiscovered', 'DeviceHealthChanged', 'DeviceHealthChanged', 'DeviceRemoved', 'DeviceDiscovered']);

    const snapshot = await expectBatchingChangesNothing(events);
    const row = snapshot.inv_devices.find((device) => device.uuid === gpu);
    expect(row).toMatchObject({ health: 'failed', health_reason: 'Xid 79', device_version: 2, removed: 0, status: 'enabled' });
    expect(snapshot.inv_devices.find((device) => device.uuid !== gpu)).toMatchObject({ health: 'ok', health_reason: null });
  });

  it('marks the host lost and back without touching what reports wrote, in any batching', async () => {
    const events = await recordHostHistory(hostname, [
      { report: [a100('0000:3b:00.0')] },
      lost('2026-03-01T10:00:00.000Z', '2026-03-01T10:00:45.000Z'),
      lost('2026-03-01T10:00:00.000Z', '2026-03-01T10:00:50.000Z'),
      seen('2026-03-01T10:01:00.000Z'),
      lost('2026-03-01T10:01:00.000Z', '2026-03-01T10:01:45.000Z'),
    ]);
    expect(typesOf(events)).toEqual(['HostRegistered', 'DeviceDiscovered', 'AgentLost', 'AgentBack', 'AgentLost']);

    const snapshot = await expectBatchingChangesNothing(events);
    expect(snapshot.inv_hosts).toEqual([
      expect.objectContaining({ hostname, agent_lost_at: '2026-03-01T10:01:45.000Z', stream_version: 5, device_count: 1, last_report_at: events[1].recordedAt }),
    ]);
    const back = await expectBatchingChangesNothing(events.slice(0, 4));
    expect(back.inv_hosts[0]).toMatchObject({ agent_lost_at: null, stream_version: 4 });
  });

  it('marks the host fenced with its reason and time, and not fenced once unfenced, in any batching', async () => {
    const history = await recordHostHistory(hostname, [{ report: [a100('0000:3b:00.0')] }]);
    const last = history[history.length - 1];
    const hostEvent = (offset: number, type: string, data: object): RecordedEvent => ({ ...last, type, data, version: last.version + offset, position: last.position + offset });
    const fenced = hostEvent(1, 'inventory.HostFenced', { hostname, reason: 'PSU dead', by: 'admin', at: '2026-03-01T11:00:00.000Z' });
    const unfenced = hostEvent(2, 'inventory.HostUnfenced', { hostname, fencedAt: '2026-03-01T11:00:00.000Z', by: 'admin', at: '2026-03-01T12:00:00.000Z' });

    const whileFenced = await expectBatchingChangesNothing([...history, fenced]);
    expect(whileFenced.inv_hosts[0]).toMatchObject({ fenced_reason: 'PSU dead', fenced_at: '2026-03-01T11:00:00.000Z', device_count: 1 });
    const after = await expectBatchingChangesNothing([...history, fenced, unfenced]);
    expect(after.inv_hosts[0]).toMatchObject({ fenced_reason: null, fenced_at: null, stream_version: unfenced.version });

    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    try {
      await applyBatches(db, oneBatch([...history, fenced]));
      expect(await new InventoryQueries(db).getHost(hostname)).toMatchObject({ fenced: true, fencedReason: 'PSU dead', fencedAt: '2026-03-01T11:00:00.000Z' });
    } finally {
      await db.close();
    }
  });

  it('serves health on devices and agent status with the last sighting on hosts', async () => {
    const events = await recordHostHistory(hostname, [
      { report: [a100('0000:3b:00.0')] },
      health('degraded', 'ECC', '2026-03-01T10:00:00.000Z'),
      lost('2026-03-01T10:00:00.000Z', '2026-03-01T10:00:45.000Z'),
    ]);
    const otherHost = await recordHostHistory('compute-1', [{ report: [] }]);
    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    try {
      await applyBatches(db, [...oneBatch(events), ...oneBatch(otherHost.map((event, index) => ({ ...event, position: 100 + index })))]);
      const queries = new InventoryQueries(db);
      expect(await queries.getDevice(gpu)).toMatchObject({ health: 'degraded', healthReason: 'ECC' });
      expect(await queries.getHost(hostname)).toMatchObject({ agentStatus: 'lost', lastSeenAt: null });
      expect(await queries.getHost('compute-1')).toMatchObject({ agentStatus: 'unknown', lastSeenAt: null });

      const seenAt = Date.parse('2026-03-01T10:05:00.000Z');
      await writeLiveView(db, [{ hostname: 'compute-1', last_seen_ms: seenAt, heartbeat_ms: null, interval_ms: null, agent_version: null }], []);
      const hosts = (await queries.listHosts()).items.map(({ hostname: name, agentStatus, lastSeenAt }) => ({ name, agentStatus, lastSeenAt }));
      expect(hosts).toEqual([
        { name: 'compute-1', agentStatus: 'up', lastSeenAt: '2026-03-01T10:05:00.000Z' },
        { name: hostname, agentStatus: 'lost', lastSeenAt: null },
      ]);
    } finally {
      await db.close();
    }
  });
});
