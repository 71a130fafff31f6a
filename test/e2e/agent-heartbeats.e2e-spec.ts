import { request as httpRequest } from 'node:http';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { deviceUuidOf } from '@ledger/inventory';
import { eventually } from '@ledger/processing/testing';
import { AgentLivenessMonitor } from '../../apps/ledger/src/agents/agent-liveness.monitor';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

const HOST = 'compute-1';
const GPU = '0000:3b:00.0';
const NIC = '0000:af:00.0';
const gpuUuid = deviceUuidOf(HOST, GPU);

type Device = { pciAddress: string; health: string; healthReason?: string | null; telemetry?: Record<string, unknown> };
const ok = (pciAddress: string, telemetry?: Record<string, unknown>): Device => ({ pciAddress, health: 'ok', ...(telemetry ? { telemetry } : {}) });
/** A heartbeat body; intervals are long unless a test wants a host lost, so no host goes silent by accident. */
const beat = (devices: unknown[], extra: Record<string, unknown> = {}) => ({ agentVersion: '0.1.0', intervalSeconds: 3600, devices, ...extra });

describe('agent heartbeats over HTTP (embedded SQLite)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const heartbeat = (host: string, body: unknown, token = agentOf(host)) => ledger.request('POST', `/api/v1/hosts/${host}/heartbeat`, { token, body });
  const report = (host: string) => ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agentOf(host), body: hostReportBody(1) });
  const admin = (path: string, position?: number | null) =>
    ledger.request('GET', path, { token: ledger.adminToken, headers: position ? { 'x-ledger-min-position': String(position) } : {} });
  const typesIn = async (stream: string, type: string) => (await store.readStream(stream)).filter((event) => event.type === type).length;

  beforeAll(async () => {
    ledger = await startTestLedger({
      LEDGER_AGENT_LOST_AFTER_INTERVALS: '1',
      LEDGER_AGENT_LIVENESS_CHECK_MS: '50',
      LEDGER_TELEMETRY_FLUSH_MS: '50',
      LEDGER_AGENT_HEARTBEAT_SECONDS: '3600',
    });
    store = ledger.app.get(EVENT_STORE);
    expect((await report(HOST)).status).toBe(200);
  });
  afterAll(() => ledger.close());

  it('keeps telemetry in the live view and appends nothing for heartbeats that change no health', async () => {
    const before = await store.headPosition();
    const first = await heartbeat(HOST, beat([ok(GPU, { utilizationPct: 37, temperatureC: 61 }), ok(NIC)]));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ hostname: HOST, appended: 0, position: null, jobsWaiting: 0, unknownDevices: [] });
    const second = await heartbeat(HOST, beat([ok(GPU.toUpperCase(), { utilizationPct: 92.5, memoryUsedGiB: 12.5 }), ok(NIC)], { agentVersion: '0.1.1', intervalSeconds: 600 }));
    expect(second.body).toMatchObject({ appended: 0, position: null });
    expect(await store.headPosition()).toBe(before);

    const telemetry = await admin(`/api/v1/hosts/${HOST}/telemetry`);
    expect(telemetry.status).toBe(200);
    expect(telemetry.body).toMatchObject({ hostname: HOST, agentVersion: '0.1.1', intervalSeconds: 600, status: 'up', lastSeenAt: expect.any(String) });
    expect(telemetry.body.devices).toEqual([
      { deviceUuid: gpuUuid, pciAddress: GPU, health: 'ok', healthReason: null, telemetry: { memoryUsedGiB: 12.5, utilizationPct: 92.5 }, observedAt: telemetry.body.lastSeenAt },
      expect.objectContaining({ pciAddress: NIC, telemetry: {} }),
    ]);
    const manager = ledger.token({ user: 'ops', project: 'p', roles: ['manager'] });
    expect((await ledger.request('GET', `/api/v1/hosts/${HOST}/telemetry`, { token: manager })).status).toBe(200);
    expect((await ledger.request('GET', `/api/v1/hosts/${HOST}/telemetry`, { token: agentOf(HOST) })).body.code).toBe('AUTH.ROLE_REQUIRED');

    expect((await admin(`/api/v1/hosts/${HOST}`)).body).toMatchObject({ agentStatus: 'up', lastSeenAt: telemetry.body.lastSeenAt, deviceCount: 5 });
    expect((await admin('/api/v1/hosts')).body.items).toEqual([expect.objectContaining({ hostname: HOST, agentStatus: 'up' })]);
  });

  it('records a change of health level once, and the return to ok once', async () => {
    const degraded = (healthReason: string): Device => ({ pciAddress: GPU, health: 'degraded', healthReason });
    const first = await heartbeat(HOST, beat([degraded('ECC double-bit errors'), ok(NIC)]));
    expect(first.body).toMatchObject({ appended: 1, position: await store.headPosition() });
    expect((await heartbeat(HOST, beat([degraded('ECC double-bit errors, 3 pages retired'), ok(NIC)]))).body).toMatchObject({ appended: 0 });
    expect(await typesIn(`device-${gpuUuid}`, 'inventory.DeviceHealthChanged')).toBe(1);
    const device = await admin(`/api/v1/devices/${gpuUuid}`, first.body.position);
    expect(device.body).toMatchObject({ health: 'degraded', healthReason: 'ECC double-bit errors', status: 'enabled' });
    const telemetry = await admin(`/api/v1/hosts/${HOST}/telemetry`);
    expect(telemetry.body.devices[0]).toMatchObject({ health: 'degraded', healthReason: 'ECC double-bit errors, 3 pages retired' });

    const recovered = await heartbeat(HOST, beat([ok(GPU), ok(NIC)]));
    expect(recovered.body).toMatchObject({ appended: 1 });
    expect(await typesIn(`device-${gpuUuid}`, 'inventory.DeviceHealthChanged')).toBe(2);
    expect((await admin(`/api/v1/devices/${gpuUuid}`, recovered.body.position)).body).toMatchObject({ health: 'ok', healthReason: null });
  });

  it("answers a heartbeat alike from Node's listener (a plain call) and through Fastify (a chunked one)", async () => {
    const body = JSON.stringify(beat([ok(GPU), ok(NIC)]));
    // Transfer-Encoding: chunked is one of the calls the raw listener leaves to Fastify (raw-agent-calls.ts).
    const chunked = await new Promise<{ status: number; contentType: string | undefined; body: unknown }>((resolve, reject) => {
      const call = httpRequest(`${ledger.url}/api/v1/hosts/${HOST}/heartbeat`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-token': agentOf(HOST), 'transfer-encoding': 'chunked' } }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'], body: JSON.parse(text) }));
      });
      call.on('error', reject);
      call.end(body);
    });
    const plain = await heartbeat(HOST, JSON.parse(body));
    expect([plain.status, plain.headers.get('content-type'), plain.body]).toEqual([chunked.status, chunked.contentType, chunked.body]);
    expect(chunked.status).toBe(200);
  });

  it('ignores devices the host has not reported and refuses hosts that never reported', async () => {
    const unknown = await heartbeat(HOST, beat([ok(GPU), { ...ok('0000:D8:00.0'), health: 'failed' }]));
    expect(unknown.body).toMatchObject({ appended: 0, unknownDevices: ['0000:d8:00.0'] });
    const telemetry = await admin(`/api/v1/hosts/${HOST}/telemetry`);
    expect(telemetry.body.devices.map((device: { pciAddress: string }) => device.pciAddress)).toEqual([GPU]);

    const before = await store.headPosition();
    const stranger = await heartbeat('compute-7', beat([ok(GPU)]), ledger.adminToken);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe('INVENTORY.HOST_NOT_FOUND');
    expect((await admin('/api/v1/hosts/compute-7/telemetry')).body.code).toBe('INVENTORY.HOST_NOT_FOUND');
    expect(await store.headPosition()).toBe(before);
  });

  describe('refuses bad heartbeats with a stable code and appends nothing', () => {
    const failing = { pciAddress: GPU, health: 'failed', healthReason: 'Xid 79' };
    const manyTelemetry = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`sample${i}`, i]));
    const cases: [string, () => Promise<{ status: number; body: any }>, number, string][] = [
      ['no token', () => ledger.request('POST', `/api/v1/hosts/${HOST}/heartbeat`, { body: beat([failing]) }), 401, 'AUTH.TOKEN_MISSING'],
      ["another host's credential", () => heartbeat(HOST, beat([failing]), agentOf('compute-2')), 403, 'AUTH.WRONG_HOST'],
      ['a reader token', () => heartbeat(HOST, beat([failing]), ledger.token({ user: 'r', project: 'p', roles: ['reader'] })), 403, 'AUTH.ROLE_REQUIRED'],
      ['an unknown field', () => heartbeat(HOST, beat([failing], { uptime: 5 })), 400, 'REQUEST.INVALID'],
      ['an unknown device field', () => heartbeat(HOST, beat([{ ...failing, serial: 'x' }])), 400, 'REQUEST.INVALID'],
      ['no interval', () => heartbeat(HOST, { agentVersion: '0.1.0', devices: [failing] }), 400, 'REQUEST.INVALID'],
      ['a zero interval', () => heartbeat(HOST, beat([failing], { intervalSeconds: 0 })), 400, 'REQUEST.INVALID'],
      ['an unknown health', () => heartbeat(HOST, beat([{ ...failing, health: 'sick' }])), 400, 'REQUEST.INVALID'],
      ['an overlong reason', () => heartbeat(HOST, beat([{ ...failing, healthReason: 'x'.repeat(256) }])), 400, 'REQUEST.INVALID'],
      ['a bad PCI address', () => heartbeat(HOST, beat([{ ...failing, pciAddress: 'gpu0' }])), 400, 'REQUEST.INVALID'],
      ['17 telemetry members', () => heartbeat(HOST, beat([{ ...failing, telemetry: manyTelemetry }])), 400, 'REQUEST.INVALID'],
      ['text telemetry', () => heartbeat(HOST, beat([{ ...failing, telemetry: { temperatureC: 'hot' } }])), 400, 'REQUEST.INVALID'],
      ['nested telemetry', () => heartbeat(HOST, beat([{ ...failing, telemetry: { memory: { used: 1 } } }])), 400, 'REQUEST.INVALID'],
      ['257 devices', () => heartbeat(HOST, beat(Array.from({ length: 257 }, () => failing))), 400, 'REQUEST.INVALID'],
      ['one device twice', () => heartbeat(HOST, beat([failing, ok(GPU)])), 400, 'INVENTORY.HEARTBEAT_INVALID'],
    ];

    it.each(cases)('%s', async (_, send, status, code) => {
      const before = await store.headPosition();
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ status, code });
      expect(await store.headPosition()).toBe(before);
    });
  });

  it('marks a silent host lost once, and back once on its next heartbeat or report', async () => {
    const host = 'compute-lost';
    const monitor = ledger.app.get(AgentLivenessMonitor);
    const lostCount = () => typesIn(`host-${host}`, 'inventory.AgentLost');
    const backCount = () => typesIn(`host-${host}`, 'inventory.AgentBack');
    const statusOf = async (position?: number) => (await admin(`/api/v1/hosts/${host}`, position)).body.agentStatus;
    expect((await report(host)).status).toBe(200);
    expect((await heartbeat(host, beat([ok(GPU)], { intervalSeconds: 1 }))).body.appended).toBe(0);

    await eventually(async () => (await statusOf()) === 'lost');
    expect(await monitor.checkOnce()).toEqual([]);
    expect(await lostCount()).toBe(1);
    const lost = (await store.readStream(`host-${host}`)).find((event) => event.type === 'inventory.AgentLost')!;
    expect(lost.data).toMatchObject({ hostname: host, lastSeenAt: expect.any(String), detectedAt: expect.any(String) });
    expect(lost.metadata.actor).toMatchObject({ user: 'ledger', roles: ['system'] });

    const back = await heartbeat(host, beat([ok(GPU)], { intervalSeconds: 1 }));
    expect(back.body).toMatchObject({ appended: 1 });
    expect((await heartbeat(host, beat([ok(GPU)], { intervalSeconds: 1 }))).body).toMatchObject({ appended: 0 });
    expect(await backCount()).toBe(1);
    expect(await statusOf(back.body.position)).toBe('up');

    await eventually(async () => (await lostCount()) === 2);
    const byReport = await report(host);
    expect(byReport.body).toMatchObject({ appended: 0 });
    expect(await backCount()).toBe(2);
    // Quiet from here on: a long interval keeps the host up for the rest of the file.
    expect((await heartbeat(host, beat([ok(GPU)]))).body).toMatchObject({ appended: 0 });
    expect(await monitor.checkOnce()).toEqual([]);
    expect([await lostCount(), await backCount()]).toEqual([2, 2]);
  });
});
