import { loadLedgerConfig } from '@ledger/config';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { TelemetryLiveView } from './telemetry-live-view';

// A step's start (60 s steps by default) five minutes ago: inside the kept history's window (60 minutes) when the flush runs.
const T1 = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000;
const agent = { agentVersion: '0.1.0', intervalSeconds: 15 };
const sample = (pciAddress: string, utilizationPct: number) => ({
  deviceUuid: `uuid-${pciAddress}`,
  pciAddress,
  health: 'ok',
  healthReason: null,
  telemetry: { utilizationPct },
});

describe('TelemetryLiveView', () => {
  let db: SqlDatabase;
  let view: TelemetryLiveView;
  const rows = (table: string) => db.all(`SELECT * FROM ${table} ORDER BY 1`);

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    view = new TelemetryLiveView(db, loadLedgerConfig({}));
    await view.onModuleInit();
  });
  afterEach(() => db.close());

  it('writes nothing per heartbeat, then the latest of each host and device in one transaction', async () => {
    const transaction = jest.spyOn(db, 'transaction');
    view.recordHeartbeat('compute-1', T1, agent, [sample('0000:3b:00.0', 10), sample('0000:af:00.0', 20)]);
    view.recordHeartbeat('compute-1', T1 + 15_000, { ...agent, agentVersion: '0.1.1' }, [sample('0000:3b:00.0', 30)]);
    view.recordSighting('compute-1', T1 + 20_000);
    expect(await rows('inv_host_liveness')).toEqual([]);

    await view.flush();
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(await rows('inv_host_liveness')).toEqual([
      { hostname: 'compute-1', last_seen_ms: T1 + 20_000, heartbeat_ms: T1 + 15_000, interval_ms: 15_000, agent_version: '0.1.1', lost_after_ms: 45_000 },
    ]);
    // One row per host: its last heartbeat's devices.
    expect((await rows('inv_host_telemetry')).map((row) => [row.hostname, JSON.parse(row.devices as string), row.heartbeat_ms])).toEqual([
      ['compute-1', [{ device_uuid: 'uuid-0000:3b:00.0', pci_address: '0000:3b:00.0', health: 'ok', health_reason: null, telemetry: { utilizationPct: 30 } }], T1 + 15_000],
    ]);
    // History keeps the step's first heartbeat only (60 s steps: T1 + 15 s is in T1's step), one row for the host's devices.
    expect((await rows('inv_host_telemetry_history')).map((row) => [row.hostname, row.step_ms, row.heartbeat_ms, JSON.parse(row.devices as string)])).toEqual([
      [
        'compute-1',
        T1,
        T1,
        [
          { device_uuid: 'uuid-0000:3b:00.0', pci_address: '0000:3b:00.0', health: 'ok', health_reason: null, telemetry: { utilizationPct: 10 } },
          { device_uuid: 'uuid-0000:af:00.0', pci_address: '0000:af:00.0', health: 'ok', health_reason: null, telemetry: { utilizationPct: 20 } },
        ],
      ],
    ]);

    await view.flush();
    expect(transaction).toHaveBeenCalledTimes(1);
  });

  it('keeps what a failed write held for the next flush, under anything newer', async () => {
    view.recordHeartbeat('compute-1', T1, agent, [sample('0000:3b:00.0', 10)]);
    jest.spyOn(db, 'transaction').mockRejectedValueOnce(new Error('database is locked'));
    await expect(view.flush()).rejects.toThrow('database is locked');
    view.recordSighting('compute-1', T1 + 5_000);

    await view.flush();
    expect(await rows('inv_host_liveness')).toEqual([
      { hostname: 'compute-1', last_seen_ms: T1 + 5_000, heartbeat_ms: T1, interval_ms: 15_000, agent_version: '0.1.0', lost_after_ms: 45_000 },
    ]);
    expect(await rows('inv_host_telemetry')).toHaveLength(1);
    expect(await rows('inv_host_telemetry_history')).toHaveLength(1);
  });
});
