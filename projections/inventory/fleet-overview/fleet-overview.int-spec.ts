import { deviceUuidOf } from '@ledger/inventory';
import type { SqlDatabase } from '@ledger/processing';
import { postgresTestDatabases, sqliteTestDatabases, type TestDatabases } from '@ledger/processing/testing';
import { createArqSchema } from '../../arqs/arq.schema';
import { a100, x710 } from '../../../libs/inventory/src/domain/testing/host-report.fixtures';
import { describeWithService, postgresUnavailable } from '../../../test/support/services';
import { writeLiveView } from '../live-view/write-live-view';
import { applyBatches } from '../testing/inventory-batches';
import { type HistoryStep, recordHostHistory } from '../testing/inventory-history';
import type { FleetFilter } from './fleet-filter';
import { FleetOverviewQueries } from './fleet-overview.queries';

const SEEN = Date.parse('2026-03-01T10:05:00.000Z');
const sighting = (hostname: string) => ({ hostname, last_seen_ms: SEEN, heartbeat_ms: null, interval_ms: null, agent_version: null });
const degraded = (hostname: string) =>
  ({ type: 'RecordDeviceHealth', deviceUuid: deviceUuidOf(hostname, '0000:3b:00.0'), health: 'degraded', reason: 'ECC', observedAt: '2026-03-01T10:00:00.000Z' }) as const;
const lost = (hostname: string) => ({ type: 'MarkAgentLost', hostname, lastSeenAt: '2026-03-01T10:00:00.000Z', detectedAt: '2026-03-01T10:00:45.000Z' }) as const;

/**
 * Four hosts: gpu-1 (GPU and NIC, fine), gpu-2 (its GPU degraded), nic-3
 * (its agent lost), quiet-4 (never seen by the live view). A request of
 * project tenant-a is bound on gpu-1.
 */
const FLEET: Record<string, HistoryStep[]> = {
  'gpu-1': [{ report: [a100('0000:3b:00.0'), x710('0000:af:00.0')] }],
  'gpu-2': [{ report: [a100('0000:3b:00.0')] }, degraded('gpu-2')],
  'nic-3': [{ report: [x710('0000:af:00.0')] }, lost('nic-3')],
  'quiet-4': [{ report: [x710('0000:af:00.0')] }],
};

function fleetOverviewContract(open: () => TestDatabases) {
  let databases: TestDatabases;
  let db: SqlDatabase;
  let queries: FleetOverviewQueries;

  beforeEach(async () => {
    databases = open();
    db = await databases.open('fleet_overview');
    let position = 0;
    for (const [hostname, steps] of Object.entries(FLEET)) {
      const events = (await recordHostHistory(hostname, steps)).map((event) => ({ ...event, position: ++position }));
      await applyBatches(db, [events]);
    }
    await writeLiveView(db, ['gpu-1', 'gpu-2', 'nic-3'].map(sighting), []);
    await createArqSchema(db);
    await db.run(
      `INSERT INTO arq_requests (uuid, project_id, state, device_profile_uuid, device_profile_name, device_profile_group_id, resource_class, hostname, instance_uuid, stream_version, created_at)
       VALUES ('7d0c6a52-3e0b-4f55-9d8e-2f1a9c3b4d10', 'tenant-a', 'Bound', 'p', 'gpu', 0, 'PGPU', 'gpu-1', '2f7d7f7e-0b8c-4a39-9d5e-6c1d2b3a4f50', 3, '2026-03-01T10:00:00.000Z')`,
    );
    queries = new FleetOverviewQueries(db);
  });

  afterEach(() => databases.dispose());

  const ALL = { all: true } as const;
  const hostnames = async (filter: Omit<FleetFilter, 'requestsOf'>, requestsOf: FleetFilter['requestsOf'] = ALL) =>
    (await queries.overview({ ...filter, requestsOf })).hosts.map((host) => host.hostname);

  it('counts the whole fleet by agent, host status, device type, status and health', async () => {
    const { counts } = await queries.overview({ requestsOf: ALL });
    expect(counts).toEqual({
      hosts: 4,
      attention: 3,
      byAgent: { up: 2, lost: 1, unknown: 1 },
      byHostStatus: { registered: 4 },
      devices: 5,
      byType: { GPU: 2, NIC: 3 },
      byDeviceStatus: { enabled: 5 },
      byHealth: { ok: 4, degraded: 1 },
    });
  });

  it('filters hosts by agent state, by what their devices are, and by what needs attention; device counts follow the device criteria', async () => {
    expect(await hostnames({ agent: 'lost' })).toEqual(['nic-3']);
    expect(await hostnames({ agent: 'unknown' })).toEqual(['quiet-4']);
    expect(await hostnames({ health: 'degraded' })).toEqual(['gpu-2']);
    expect(await hostnames({ attention: true })).toEqual(['gpu-2', 'nic-3', 'quiet-4']);
    const gpus = await queries.overview({ type: 'GPU', requestsOf: ALL });
    expect(gpus.hosts.map((host) => host.hostname)).toEqual(['gpu-1', 'gpu-2']);
    expect(gpus.counts).toMatchObject({ hosts: 2, devices: 2, byType: { GPU: 2 } });
    // A listed host shows all its devices, not only the matching ones.
    expect(gpus.hosts[0].devices.map((device) => device.type)).toEqual(['GPU', 'NIC']);
  });

  it("finds hosts by a part of their name, a device (uuid prefix, model, PCI address), or a request (project, instance) of the caller's scope", async () => {
    expect(await hostnames({ search: 'GPU-' })).toEqual(['gpu-1', 'gpu-2']);
    expect(await hostnames({ search: deviceUuidOf('nic-3', '0000:af:00.0').slice(0, 13) })).toEqual(['nic-3']);
    expect(await hostnames({ search: 'tenant-a' })).toEqual(['gpu-1']);
    expect(await hostnames({ search: '2f7d7f7e-0b8c-4a39-9d5e-6c1d2b3a4f50' })).toEqual(['gpu-1']);
    expect(await hostnames({ search: '0000:af:00.0' })).toEqual(['gpu-1', 'nic-3', 'quiet-4']);
    // Anyone but an admin finds hosts by their own project's requests only.
    expect(await hostnames({ search: 'tenant-a' }, { project: 'tenant-b' })).toEqual([]);
    expect(await hostnames({ search: '2f7d7f7e-0b8c-4a39-9d5e-6c1d2b3a4f50' }, { project: 'tenant-a' })).toEqual(['gpu-1']);
    // LIKE's wildcards in the search are taken literally.
    expect(await hostnames({ search: '%' })).toEqual([]);
  });

  it('pages the matching hosts by name', async () => {
    const first = await queries.overview({ requestsOf: ALL }, { limit: 3 });
    expect(first.hosts.map((host) => host.hostname)).toEqual(['gpu-1', 'gpu-2', 'nic-3']);
    const second = await queries.overview({ requestsOf: ALL }, { limit: 3, cursor: first.nextCursor! });
    expect(second.hosts.map((host) => host.hostname)).toEqual(['quiet-4']);
    expect(second.nextCursor).toBeNull();
    expect(second.counts.hosts).toBe(4);
  });
}

describe('the fleet overview on SQLite', () => fleetOverviewContract(sqliteTestDatabases));

describeWithService('PostgreSQL', postgresUnavailable())('the fleet overview on PostgreSQL', () => fleetOverviewContract(postgresTestDatabases));
