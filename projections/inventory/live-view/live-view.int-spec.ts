import type { SqlDatabase } from '@ledger/processing';
import { postgresTestDatabases, sqliteTestDatabases, type TestDatabases } from '@ledger/processing/testing';
import { describeWithService, postgresUnavailable } from '../../../test/support/services';
import { a100, x710 } from '../../../libs/inventory/src/domain/testing/host-report.fixtures';
import { applyBatches } from '../testing/inventory-batches';
import { recordHostHistory } from '../testing/inventory-history';
import { LiveViewQueries } from './live-view.queries';
import type { HostLivenessRow, HostTelemetryRow } from './live-view.rows';
import { ensureLiveViewTables } from './live-view.schema';
import { fillLostAfter, keptSamples, writeLiveView } from './write-live-view';

const T1 = Date.parse('2026-03-01T10:00:00.000Z');
const T2 = T1 + 15_000;
const T3 = T2 + 60_000;
const heartbeatRow = (hostname: string, at: number, intervalMs: number, agentVersion: string): HostLivenessRow => ({
  hostname,
  last_seen_ms: at,
  heartbeat_ms: at,
  interval_ms: intervalMs,
  agent_version: agentVersion,
});
const sightingRow = (hostname: string, at: number): HostLivenessRow => ({ hostname, last_seen_ms: at, heartbeat_ms: null, interval_ms: null, agent_version: null });
/** A heartbeat's devices, each `[pciAddress, utilizationPct]`. */
const samples = (hostname: string, at: number, devices: [string, number][]): HostTelemetryRow => ({
  hostname,
  heartbeat_ms: at,
  devices: devices.map(([pciAddress, utilizationPct]) => ({
    device_uuid: `uuid-${hostname}-${pciAddress}`,
    pci_address: pciAddress,
    health: 'ok',
    health_reason: null,
    telemetry: { utilizationPct },
  })),
});
const sample = (hostname: string, pciAddress: string, at: number, utilizationPct: number) => samples(hostname, at, [[pciAddress, utilizationPct]]);

function liveViewContract(open: () => TestDatabases) {
  let databases: TestDatabases;
  let db: SqlDatabase;
  let queries: LiveViewQueries;

  beforeEach(async () => {
    databases = open();
    db = await databases.open('live_view');
    for (const hostname of ['compute-1', 'compute-2']) {
      await applyBatches(db, [await recordHostHistory(hostname, [{ report: [a100('0000:3b:00.0'), x710('0000:af:00.0')] }])]);
    }
    await ensureLiveViewTables(db);
    queries = new LiveViewQueries(db);
  });

  afterEach(() => databases.dispose());

  it('keeps the later values when replicas flush out of order', async () => {
    await writeLiveView(db, [heartbeatRow('compute-1', T2, 15_000, '0.2.0')], [sample('compute-1', '0000:3b:00.0', T2, 50)]);
    await writeLiveView(db, [heartbeatRow('compute-1', T1, 30_000, '0.1.0')], [sample('compute-1', '0000:3b:00.0', T1, 10)]);
    await writeLiveView(db, [sightingRow('compute-1', T3)], []);
    expect(await queries.hostTelemetry('compute-1')).toEqual({
      hostname: 'compute-1',
      lastSeenAt: new Date(T3).toISOString(),
      agentVersion: '0.2.0',
      intervalSeconds: 15,
      status: 'up',
      devices: [
        {
          deviceUuid: 'uuid-compute-1-0000:3b:00.0',
          pciAddress: '0000:3b:00.0',
          health: 'ok',
          healthReason: null,
          telemetry: { utilizationPct: 50 },
          observedAt: new Date(T2).toISOString(),
        },
      ],
    });
  });

  it('counts registered hosts per agent status, as each host reads', async () => {
    expect(await queries.agentCounts()).toEqual({ up: 0, lost: 0, unknown: 2 });
    await writeLiveView(db, [sightingRow('compute-1', T1), sightingRow('compute-2', T1), sightingRow('never-registered', T1)], []);
    // What the projection writes on inventory.AgentLost, without a whole history to get there.
    await db.run('UPDATE inv_hosts SET agent_lost_at = $1 WHERE hostname = $2', [new Date(T2).toISOString(), 'compute-2']);
    expect(await queries.agentCounts()).toEqual({ up: 1, lost: 1, unknown: 0 });
    expect([(await queries.hostTelemetry('compute-1'))?.status, (await queries.hostTelemetry('compute-2'))?.status]).toEqual(['up', 'lost']);
  });

  it('serves only the devices of the last heartbeat', async () => {
    await writeLiveView(db, [heartbeatRow('compute-1', T1, 15_000, '0.1.0')], [samples('compute-1', T1, [['0000:3b:00.0', 1], ['0000:af:00.0', 2]])]);
    await writeLiveView(db, [heartbeatRow('compute-1', T2, 15_000, '0.1.0')], [sample('compute-1', '0000:af:00.0', T2, 3)]);
    const telemetry = await queries.hostTelemetry('compute-1');
    expect(telemetry?.devices.map((device) => [device.pciAddress, device.telemetry])).toEqual([['0000:af:00.0', { utilizationPct: 3 }]]);
  });

  it('knows hosts that reported but never heartbeated, and no others', async () => {
    expect(await queries.hostTelemetry('compute-2')).toEqual({
      hostname: 'compute-2',
      lastSeenAt: null,
      agentVersion: null,
      intervalSeconds: null,
      status: 'unknown',
      devices: [],
    });
    expect(await queries.hostTelemetry('compute-3')).toBeUndefined();
  });

  it("keeps each host's telemetry one sample per step (the first written, whatever the flush order), read per device or per host, and drops steps older than the window", async () => {
    const window = (nowMs: number) => ({ stepMs: 60_000, keepMs: 5 * 60_000, nowMs });
    const at = (minute: number, second: number) => T1 + minute * 60_000 + second * 1000;
    // History is kept per host: a device's is found through the host the inventory has it on.
    const uuidOf = async (pciAddress: string) => (await db.get<{ uuid: string }>('SELECT uuid FROM inv_devices WHERE hostname = $1 AND pci_address = $2', ['compute-1', pciAddress]))!.uuid;
    const [gpu, nic] = [await uuidOf('0000:3b:00.0'), await uuidOf('0000:af:00.0')];
    const beat = (when: number, utilization: number) => {
      const telemetry = samples('compute-1', when, [['0000:3b:00.0', utilization], ['0000:af:00.0', utilization + 1]]);
      const devices = telemetry.devices.map((device) => ({ ...device, device_uuid: device.pci_address === '0000:3b:00.0' ? gpu : nic }));
      const row = { ...telemetry, devices };
      return writeLiveView(db, [heartbeatRow('compute-1', when, 15_000, '0.1.0')], [row], { rows: [keptSamples(row, 60_000)], window: window(when) });
    };
    await beat(at(0, 15), 10);
    await beat(at(0, 45), 20); // another replica's sample of the same step: the step keeps 0:15
    await beat(at(1, 0), 30);
    await beat(at(2, 59), 40);
    const series = await queries.telemetryHistory({ deviceUuid: gpu.toUpperCase(), sinceMs: 0 });
    expect(series).toEqual([
      {
        deviceUuid: gpu,
        hostname: 'compute-1',
        samples: [
          { at: new Date(at(0, 15)).toISOString(), telemetry: { utilizationPct: 10 } },
          { at: new Date(at(1, 0)).toISOString(), telemetry: { utilizationPct: 30 } },
          { at: new Date(at(2, 59)).toISOString(), telemetry: { utilizationPct: 40 } },
        ],
      },
    ]);
    const host = await queries.telemetryHistory({ hostname: 'compute-1', sinceMs: at(1, 0) });
    expect(host.map((device) => [device.deviceUuid, device.samples.map((one) => one.telemetry.utilizationPct)])).toEqual(
      [
        [gpu, [30, 40]],
        [nic, [31, 41]],
      ].sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)),
    );
    expect(await queries.telemetryHistory({ deviceUuid: 'no-such-device', sinceMs: 0 })).toEqual([]);
    // At 7:30 the window reaches back to 2:30: the steps of minutes 0 and 1 have ended before it and are dropped.
    await beat(at(7, 30), 50);
    const kept = await queries.telemetryHistory({ deviceUuid: gpu, sinceMs: 0 });
    expect(kept[0].samples.map((one) => one.telemetry.utilizationPct)).toEqual([40, 50]);
  });

  it('finds hosts silent for their lost-after window, counting from the monitor start at the earliest', async () => {
    await writeLiveView(db, [heartbeatRow('compute-1', T1, 1_000, '0.1.0'), sightingRow('compute-2', T1)], []);
    const overdue = (nowMs: number, seenNoEarlierThanMs = 0) =>
      queries.overdueHosts({ nowMs, seenNoEarlierThanMs, lostAfterIntervals: 3, defaultIntervalMs: 15_000 });
    expect(await overdue(T1 + 3_000)).toEqual([]);
    expect(await overdue(T1 + 3_001)).toEqual([{ hostname: 'compute-1', lastSeenMs: T1 }]);
    expect(await overdue(T1 + 45_001)).toEqual([
      { hostname: 'compute-1', lastSeenMs: T1 },
      { hostname: 'compute-2', lastSeenMs: T1 },
    ]);
    // A monitor that started at T1 + 10 s gives every host a full window from then.
    expect(await overdue(T1 + 12_000, T1 + 10_000)).toEqual([]);
    expect(await overdue(T1 + 13_001, T1 + 10_000)).toEqual([{ hostname: 'compute-1', lastSeenMs: T1 }]);
  });

  it('finds overdue hosts through the due-time column, rows written before it once the monitor filled it', async () => {
    await writeLiveView(db, [heartbeatRow('compute-1', T1, 1_000, '0.1.0')], [], undefined, { lostAfterIntervals: 3, defaultIntervalMs: 15_000 });
    await db.run('UPDATE inv_host_liveness SET lost_after_ms = NULL');
    const overdue = () => queries.overdueHosts({ nowMs: T1 + 60_000, seenNoEarlierThanMs: 0, lostAfterIntervals: 3, defaultIntervalMs: 15_000 });
    expect(await overdue()).toEqual([]);
    await fillLostAfter(db, { lostAfterIntervals: 3, defaultIntervalMs: 15_000 });
    expect(await db.get('SELECT lost_after_ms FROM inv_host_liveness WHERE hostname = $1', ['compute-1'])).toEqual({ lost_after_ms: 3_000 });
    expect(await overdue()).toEqual([{ hostname: 'compute-1', lastSeenMs: T1 }]);
  });
}

describe('the agents live view on SQLite', () => liveViewContract(sqliteTestDatabases));

describeWithService('PostgreSQL', postgresUnavailable())('the agents live view on PostgreSQL', () => liveViewContract(postgresTestDatabases));
