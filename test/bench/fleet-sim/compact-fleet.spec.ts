import { CompactFleet, type CompactFleetSettings } from './compact-fleet';
import { FleetBodies } from './fleet-bodies';
import type { FleetAnswer, FleetCall, FleetTransport } from './http-fleet-transport';

/** Records every call; answers at once (200, or what `answerWith` says) unless held. */
class FakeTransport implements FleetTransport {
  readonly calls: FleetCall[] = [];
  readonly held: Array<() => void> = [];
  hold = false;
  answerWith: (call: FleetCall) => [number, string] = (call) => [200, call.method === 'PUT' ? '{"appended":0,"position":null,"events":[]}' : '{"appended":0,"jobsWaiting":0}'];
  constructor(readonly replicas = 2) {}
  send(call: FleetCall, answer: FleetAnswer): void {
    this.calls.push(call);
    const reply = () => answer(...this.answerWith(call));
    if (this.hold) this.held.push(reply);
    else reply();
  }
  release(): void {
    this.held.splice(0).forEach((reply) => reply());
  }
  close(): void {}
}

function fleetOn(transport: FakeTransport, clock: { now: number }, overrides: Partial<CompactFleetSettings> = {}) {
  return new CompactFleet({
    ledgerUrls: ['http://a', 'http://b'],
    hosts: 4,
    devicesPerHost: 8,
    reportIntervalSeconds: 60,
    heartbeatIntervalSeconds: 60,
    concurrency: 8,
    tokenFor: (hostname) => `token-${hostname}`,
    now: () => clock.now,
    transport,
    tickMs: 0,
    ...overrides,
  });
}

/** Moves the fake clock in 100 ms steps to `toMs`, sending what falls due at each. */
function runUntil(fleet: CompactFleet, clock: { now: number }, toMs: number): void {
  while (clock.now < toMs) {
    clock.now = Math.min(toMs, clock.now + 100);
    fleet.pump();
  }
}

const hostOf = (call: FleetCall) => /\/hosts\/([^/]+)\//.exec(call.path)![1];
const countBy = (calls: readonly FleetCall[], kind: 'report' | 'heartbeat') =>
  calls.filter((call) => call.path.endsWith(kind)).reduce<Record<string, number>>((counts, call) => ({ ...counts, [hostOf(call)]: (counts[hostOf(call)] ?? 0) + 1 }), {});

describe('CompactFleet', () => {
  it('registers each host with a report then a heartbeat announcing the registration interval, each on its own replica with its own credential', async () => {
    const transport = new FakeTransport();
    const clock = { now: 1_000_000 };
    const fleet = fleetOn(transport, clock);
    await fleet.start();
    expect(fleet.registered).toBe(4);
    const registration = transport.calls.slice(0, 8);
    expect(countBy(registration, 'report')).toEqual({ 'sim-00001': 1, 'sim-00002': 1, 'sim-00003': 1, 'sim-00004': 1 });
    expect(countBy(registration, 'heartbeat')).toEqual({ 'sim-00001': 1, 'sim-00002': 1, 'sim-00003': 1, 'sim-00004': 1 });
    expect(registration.every((call) => call.token === `token-${hostOf(call)}` && call.replica === (Number(hostOf(call).slice(4)) - 1) % 2)).toBe(true);
    expect(JSON.parse(registration.find((call) => call.method === 'POST')!.body)).toMatchObject({ intervalSeconds: 60, devices: expect.any(Array) });
    await fleet.stop();
  });

  it('sends every due call once: one report per interval and one heartbeat per heartbeat interval for each host, counted in the stats', async () => {
    const transport = new FakeTransport();
    const clock = { now: 0 };
    const fleet = fleetOn(transport, clock);
    await fleet.start();
    await fleet.holdReports();
    transport.calls.length = 0;
    const before = fleet.stats.totals();
    fleet.resumeReports();
    await fleet.restartHeartbeats(15);
    runUntil(fleet, clock, 60_000 - 1);
    expect(countBy(transport.calls, 'report')).toEqual({ 'sim-00001': 1, 'sim-00002': 1, 'sim-00003': 1, 'sim-00004': 1 });
    expect(countBy(transport.calls, 'heartbeat')).toEqual({ 'sim-00001': 4, 'sim-00002': 4, 'sim-00003': 4, 'sim-00004': 4 });
    expect(transport.calls.filter((call) => call.method === 'POST').every((call) => JSON.parse(call.body).intervalSeconds === 15)).toBe(true);
    const after = fleet.stats.totals();
    expect([after.reports - before.reports, after.heartbeats - before.heartbeats, after.errors]).toEqual([4, 16, 0]);
    await fleet.stop();
  });

  it('spreads the hosts evenly over the interval', async () => {
    const transport = new FakeTransport();
    const clock = { now: 0 };
    const fleet = fleetOn(transport, clock);
    await fleet.start();
    await fleet.stopHeartbeats();
    transport.calls.length = 0;
    const sentAt: number[] = [];
    for (let step = 0; step < 600; step++) {
      clock.now += 100;
      const sent = transport.calls.length;
      fleet.pump();
      for (let call = sent; call < transport.calls.length; call++) sentAt.push(clock.now);
    }
    expect(sentAt).toEqual([15_000, 30_000, 45_000, 60_000]);
    await fleet.stop();
  });

  it('holds calls over its bound in flight and delivers them once answers free the slots, none dropped', async () => {
    const transport = new FakeTransport();
    const clock = { now: 0 };
    const fleet = fleetOn(transport, clock, { hosts: 40, concurrency: 3 });
    await fleet.start();
    await fleet.holdReports();
    transport.calls.length = 0;
    transport.hold = true;
    await fleet.restartHeartbeats(15);
    runUntil(fleet, clock, 14_999);
    expect(fleet.callsInFlight).toBe(3);
    expect(fleet.queued).toBeGreaterThan(30);
    transport.hold = false;
    transport.release();
    expect(countBy(transport.calls, 'heartbeat')).toEqual(Object.fromEntries(Array.from({ length: 40 }, (_, host) => [`sim-${String(host + 1).padStart(5, '0')}`, 1])));
    expect(fleet.queued).toBe(0);
    await fleet.stop();
  });

  it('applies churn: the changed devices show in their hosts\' next reports, sent at once; the same seed picks the same devices', async () => {
    const transport = new FakeTransport();
    const clock = { now: 0 };
    const fleet = fleetOn(transport, clock, { hosts: 10 });
    await fleet.start();
    const bodies = new FleetBodies(8);
    transport.calls.length = 0;
    const churned = await fleet.churn(0.05);
    expect(churned).toHaveLength(4);
    const reports = transport.calls.filter((call) => call.method === 'PUT');
    expect(new Set(reports.map(hostOf))).toEqual(new Set(churned.map((device) => device.hostname)));
    for (const device of churned) {
      const report = JSON.parse(reports.find((call) => hostOf(call) === device.hostname)!.body) as { devices: Array<{ pciAddress: string; driver: string; deployables: Array<{ count: number }> }> };
      const shown = report.devices.find((candidate) => candidate.pciAddress === device.pciAddress)!;
      if (device.kind === 'driver') expect(shown.driver).toBe(device.expected.driver);
      else expect(shown.deployables.reduce((sum, deployable) => sum + deployable.count, 0)).toBe(device.expected.deployableCount);
      expect(report).not.toEqual(JSON.parse(bodies.report(device.hostname, new Uint8Array(8), 0)));
    }
    const other = new CompactFleet({ ledgerUrls: ['http://a'], hosts: 10, devicesPerHost: 8, reportIntervalSeconds: 60, heartbeatIntervalSeconds: 60, concurrency: 8, tokenFor: () => 't', transport: new FakeTransport(1), now: () => 0, tickMs: 0 });
    expect((await other.churn(0.05)).map((device) => device.description)).toEqual(churned.map((device) => device.description));
    await fleet.stop();
  });

  it('reports at once for a host the ledger does not know', async () => {
    const transport = new FakeTransport();
    const clock = { now: 0 };
    const fleet = fleetOn(transport, clock);
    await fleet.start();
    await fleet.holdReports();
    await fleet.restartHeartbeats(15);
    transport.answerWith = (call) => (call.method === 'POST' && hostOf(call) === 'sim-00002' ? [404, '{"code":"INVENTORY.HOST_NOT_FOUND","detail":"no such host"}'] : [200, '{"appended":0,"position":null,"events":[]}']);
    transport.calls.length = 0;
    runUntil(fleet, clock, 15_000);
    expect(transport.calls.filter((call) => call.method === 'PUT').map(hostOf)).toEqual(['sim-00002']);
    expect(fleet.stats.totals().errorCodes).toEqual({ 'INVENTORY.HOST_NOT_FOUND': 1 });
    await fleet.stop();
  });

  it('fails a call over to the next replica when its own cannot serve', async () => {
    const transport = new FakeTransport();
    transport.answerWith = (call) => (call.replica === 0 ? [0, 'connect ECONNREFUSED'] : [200, '{"appended":1,"position":7,"events":[]}']);
    const fleet = fleetOn(transport, { now: 0 });
    await fleet.start();
    expect(fleet.registered).toBe(4);
    expect(fleet.stats.totals().errors).toBe(0);
    await fleet.stop();
  });
});

describe('FleetBodies', () => {
  it("gives an unchurned host's report from the template byte for byte as the full rendering does", () => {
    const bodies = new FleetBodies(8);
    const states = new Uint8Array(8);
    for (const hostname of ['sim-00001', 'sim-42', 'sim-100000']) expect(bodies.report(hostname, states, 0)).toBe(bodies.render(hostname, states, 0));
    expect(bodies.report('sim-00001', states, 0)).toContain('"serial":"sim-00001-gpu0"');
  });
});
