import { HeartbeatLoop } from './heartbeat-loop';
import { HostDiscovery } from './host-discovery';
import { LedgerCallError } from './ledger-call.error';
import type { Heartbeat } from './protocol';
import { collectingLogger, FakeDriver } from './testing/fake-driver';
import { eventually, ManualTimers } from './testing/manual-timers';

describe('HeartbeatLoop', () => {
  it('sends health and telemetry every interval, says when jobs are waiting, logs an outage once and says when the ledger is back', async () => {
    const driver = new FakeDriver('simulated');
    driver.samples = [{ pciAddress: '0000:5e:00.0', health: 'ok', reason: null, telemetry: { temperatureC: 61 } }];
    const beats: Heartbeat[] = [];
    let answer: 'ok' | 'jobs' | 'down' = 'ok';
    const client = {
      heartbeat: async (heartbeat: Heartbeat) => {
        if (answer === 'down') throw new LedgerCallError('unreachable', 'POST /heartbeat', 'ECONNREFUSED');
        beats.push(heartbeat);
        return { hostname: 'compute-1', appended: 0, position: null, jobsWaiting: answer === 'jobs' ? 2 : 0 };
      },
    };
    let hints = 0;
    let backs = 0;
    const logger = collectingLogger();
    const timers = new ManualTimers();
    const loop = new HeartbeatLoop({
      discovery: new HostDiscovery('compute-1', [driver], logger),
      client,
      timers,
      logger,
      intervalSeconds: 15,
      onJobsWaiting: () => hints++,
      onLedgerBack: () => backs++,
    });
    const stop = new AbortController();
    const running = loop.run(stop.signal);
    await eventually(() => timers.sleeping === 1);
    expect(beats).toEqual([
      { agentVersion: '0.1.0', intervalSeconds: 15, devices: [{ pciAddress: '0000:5e:00.0', health: 'ok', healthReason: null, telemetry: { temperatureC: 61 } }] },
    ]);
    expect(hints).toBe(0);

    answer = 'jobs';
    timers.advance(15_000);
    await eventually(() => beats.length === 2 && timers.sleeping === 1);
    expect(hints).toBe(1);

    answer = 'down';
    timers.advance(15_000);
    await eventually(() => timers.requested.length === 3 && timers.sleeping === 1);
    timers.advance(15_000);
    await eventually(() => timers.requested.length === 4 && timers.sleeping === 1);
    answer = 'ok';
    timers.advance(15_000);
    await eventually(() => beats.length === 3 && timers.sleeping === 1);
    expect(timers.requested).toEqual([15_000, 15_000, 15_000, 15_000, 15_000]);
    expect(logger.lines.filter((line) => line.startsWith('warn heartbeat'))).toHaveLength(1);
    expect(logger.lines).toContain('log heartbeat: delivered again');
    expect(logger.lines.filter((line) => line.startsWith('log ready:'))).toEqual(['log ready: first heartbeat delivered (every 15 s); jobs for this host are taken']);
    expect(backs).toBe(1);
    stop.abort();
    await running;
  });

  it('asks for a report when the ledger does not know the host', async () => {
    let reportsAsked = 0;
    const logger = collectingLogger();
    const loop = new HeartbeatLoop({
      discovery: new HostDiscovery('compute-1', [], logger),
      client: {
        heartbeat: async () => {
          throw new LedgerCallError('refused', 'POST /heartbeat', 'INVENTORY.HOST_NOT_FOUND: send a report first', 404, 'INVENTORY.HOST_NOT_FOUND');
        },
      },
      timers: new ManualTimers(),
      logger,
      intervalSeconds: 15,
      onJobsWaiting: () => undefined,
      onHostUnknown: () => reportsAsked++,
    });
    await loop.beat();
    expect(reportsAsked).toBe(1);
    expect(logger.lines.some((line) => line.startsWith('log ready:'))).toBe(false);
  });
});
