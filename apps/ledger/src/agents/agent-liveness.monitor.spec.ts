import { loadLedgerConfig } from '@ledger/config';
import { handleCommand } from '@ledger/eventstore';
import { hostInventoryDecider, hostStream } from '@ledger/inventory';
import { hostLivenessCommands } from '@ledger/inventory/nest';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { ensureProcessingTables, openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { InMemoryEventStore } from '@ledger/processing/testing';
import { ensureLiveViewTables, writeLiveView } from '@ledger/projections/inventory';
import { AgentLivenessMonitor } from './agent-liveness.monitor';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const HOUR = 3_600_000;

describe('AgentLivenessMonitor', () => {
  let db: SqlDatabase;
  let store: InMemoryEventStore;
  const monitor = (instanceId: string) =>
    new AgentLivenessMonitor(db, loadLedgerConfig({ LEDGER_INSTANCE_ID: instanceId }), hostLivenessCommands(store));
  const lostEvents = async (hostname: string) => (await store.readStream(hostStream(hostname))).filter((event) => event.type === 'inventory.AgentLost');

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    store = new InMemoryEventStore();
    await ensureProcessingTables(db);
    await ensureLiveViewTables(db);
    for (const hostname of ['compute-1', 'compute-2']) {
      const report = { type: 'ReportHost', report: { hostname, devices: [] }, receivedAt: new Date(T0 - HOUR).toISOString() } as const;
      await handleCommand(store, hostStream(hostname), hostInventoryDecider, report, { actor: SYSTEM_ACTOR, correlationId: 'monitor-spec' });
    }
    // Both silent for an hour, as after a ledger outage: one announced 15 s heartbeats, the other only reported (default 15 s).
    await writeLiveView(
      db,
      [
        { hostname: 'compute-1', last_seen_ms: T0 - HOUR, heartbeat_ms: T0 - HOUR, interval_ms: 15_000, agent_version: '0.1.0' },
        { hostname: 'compute-2', last_seen_ms: T0 - HOUR, heartbeat_ms: null, interval_ms: null, agent_version: null },
      ],
      [],
    );
  });
  afterEach(() => db.close());

  it('gives every host one window from its start, then records each silent host lost once', async () => {
    const watching = monitor('ledger-a');
    expect(await watching.checkOnce(T0)).toEqual([]);
    expect(await watching.checkOnce(T0 + 45_000)).toEqual([]);
    expect(await watching.checkOnce(T0 + 45_001)).toEqual(['compute-1', 'compute-2']);
    expect(await watching.checkOnce(T0 + 60_000)).toEqual([]);
    expect((await lostEvents('compute-1')).map((event) => event.data)).toEqual([
      { hostname: 'compute-1', lastSeenAt: new Date(T0 - HOUR).toISOString(), detectedAt: new Date(T0 + 45_001).toISOString() },
    ]);
    expect(await lostEvents('compute-2')).toHaveLength(1);
  });

  it('leaves the watch to the instance holding the lease; a successor starts with a full window', async () => {
    const first = monitor('ledger-a');
    const standby = monitor('ledger-b');
    const owner = async () => (await db.get<{ owner: string }>("SELECT owner FROM processor_leases WHERE name = 'agent-liveness'"))?.owner;
    await first.checkOnce(T0);
    await first.checkOnce(T0 + 12_000);
    expect(await standby.checkOnce(T0 + 20_000)).toEqual([]);
    expect(await owner()).toBe('ledger-a');

    // ledger-a stopped renewing: its 15 s lease ran out at T0 + 27 s.
    expect(await standby.checkOnce(T0 + 30_000)).toEqual([]);
    expect(await owner()).toBe('ledger-b');
    expect(await standby.checkOnce(T0 + 75_000)).toEqual([]);
    expect(await standby.checkOnce(T0 + 75_001)).toEqual(['compute-1', 'compute-2']);
  });
});
