import { loadLedgerConfig } from '@ledger/config';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { TelemetryLiveView } from './telemetry-live-view';

const T1 = Date.parse('2026-03-01T10:00:00.000Z');
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
    expect((await rows('inv_device_telemetry')).map((row) => [row.pci_address, row.telemetry, row.heartbeat_ms])).toEqual([
      ['0000:3b:00.0', '{"utilizationPct":30}', T1 + 15_000],
      ['0000:af:00.0', '{"utilizationPct":20}', T1],
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
    expect(await rows('inv_device_telemetry')).toHaveLength(1);
  });
});
