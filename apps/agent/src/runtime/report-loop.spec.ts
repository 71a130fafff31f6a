import type { ReportedDevice } from '@ledger/inventory';
import { BACKOFF_CAP_MS } from './backoff';
import { HostDiscovery } from './host-discovery';
import { LedgerCallError } from './ledger-call.error';
import { ReportLoop } from './report-loop';
import { collectingLogger, FakeDriver, fakeFpga } from './testing/fake-driver';
import { eventually, ManualTimers } from './testing/manual-timers';

const CHECK_MS = 15_000;
const INTERVAL_MS = 60_000;

describe('ReportLoop', () => {
  let driver: FakeDriver;
  let timers: ManualTimers;
  let sent: (readonly ReportedDevice[])[];
  let ledgerDown: boolean;
  let loop: ReportLoop;

  beforeEach(() => {
    driver = new FakeDriver('simulated', [fakeFpga('0000:5e:00.0')]);
    timers = new ManualTimers();
    sent = [];
    ledgerDown = false;
    const client = {
      report: async (devices: readonly ReportedDevice[]) => {
        if (ledgerDown) throw new LedgerCallError('unreachable', 'PUT /report', 'cannot reach the ledger (ECONNREFUSED)');
        sent.push(devices);
        return { hostname: 'compute-1', appended: 1, position: 1, events: ['inventory.DeviceDiscovered'] };
      },
    };
    loop = new ReportLoop({
      discovery: new HostDiscovery('compute-1', [driver], collectingLogger()),
      client,
      timers,
      logger: collectingLogger(),
      reportIntervalMs: INTERVAL_MS,
      checkIntervalMs: CHECK_MS,
      random: () => 0.5,
    });
  });

  it('reports on start, then only on a change or when the interval has passed', async () => {
    await loop.round();
    expect(sent).toHaveLength(1);
    timers.advance(CHECK_MS);
    await loop.round();
    expect(sent).toHaveLength(1);
    driver.devices = [fakeFpga('0000:5e:00.0', 4)];
    await loop.round();
    expect(sent).toHaveLength(2);
    expect(sent[1][0].deployables[0].count).toBe(4);
    timers.advance(INTERVAL_MS - 1);
    await loop.round();
    expect(sent).toHaveLength(2);
    timers.advance(1);
    await loop.round();
    expect(sent).toHaveLength(3);
  });

  it('reports when asked even if nothing changed', async () => {
    await loop.round();
    loop.reportNow();
    await loop.round();
    expect(sent).toHaveLength(2);
  });

  it('keeps discovering while the ledger is down and sends only the newest picture once it is back', async () => {
    await loop.round();
    ledgerDown = true;
    driver.devices = [fakeFpga('0000:5e:00.0', 3)];
    await loop.round();
    driver.devices = [fakeFpga('0000:5e:00.0', 5)];
    await loop.round();
    expect(loop.picture?.devices[0].deployables[0].count).toBe(5);
    ledgerDown = false;
    await loop.round();
    expect(sent.map((devices) => devices[0].deployables[0].count)).toEqual([2, 5]);
  });

  it('waits the check interval between rounds, and backs off (never beyond the check interval) while failing', async () => {
    const stop = new AbortController();
    const running = loop.run(stop.signal);
    await loop.firstRound;
    expect(sent).toHaveLength(1);
    await eventually(() => timers.sleeping === 1);
    expect(timers.requested).toEqual([CHECK_MS]);
    ledgerDown = true;
    driver.devices = [];
    timers.advance(CHECK_MS);
    await eventually(() => timers.requested.length === 2 && timers.sleeping === 1);
    timers.advance(1_000);
    await eventually(() => timers.requested.length === 3 && timers.sleeping === 1);
    expect(timers.requested).toEqual([CHECK_MS, 1_000, 2_000]);
    ledgerDown = false;
    timers.advance(2_000);
    await eventually(() => sent.length === 2 && timers.sleeping === 1);
    expect(sent[1]).toEqual([]);
    expect(timers.requested.at(-1)).toBe(CHECK_MS);
    expect(Math.max(...timers.requested)).toBeLessThanOrEqual(Math.min(CHECK_MS, BACKOFF_CAP_MS));
    stop.abort();
    await running;
  });
});
