import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import type { SimulatedDriver } from '../../apps/agent/src/drivers/simulated/simulated.driver';
import type { Agent } from '../../apps/agent/src/runtime/agent';
import { inProcessSimulatedAgent } from '../support/in-process-agent';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

const HOST = 'compute-clean';

interface DeviceView {
  readonly uuid: string;
  readonly type: string;
  readonly cleanState: string;
  readonly cleanReason: string | null;
}

/**
 * Cleaning (issue 24, part 3) with the agent as main.ts builds it and the
 * real simulated driver: a GPU released by a tenant is cleaned by a job on
 * its agent before it is offered again; a failed clean keeps it reserved,
 * clean-failed, until an operator retries the clean or releases the device.
 */
describe('cleaning released devices (embedded SQLite, simulated agent)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let agent: Agent;
  let driver: SimulatedDriver;
  let stateDir: string;
  let nova: string;
  let gpu: DeviceView;
  let rp: string;
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });
  const fresh = async () => ({ 'x-ledger-min-position': String(await store.headPosition()) });
  const device = async (): Promise<DeviceView> => (await ledger.request('GET', `/api/v1/devices/${gpu.uuid}`, { token: ledger.adminToken, headers: await fresh() })).body;
  const provider = async () => {
    const providers = (await ledger.request('GET', `/api/v1/hosts/${HOST}/placement`, { token: ledger.adminToken, headers: await fresh() })).body.providers;
    return providers.map((p: { reserved: number; total: number; reservedBecause: string[] }) => [p.reserved, p.total, p.reservedBecause]);
  };
  const deviceEvents = async () => (await store.readStream(`device-${gpu.uuid}`)) as RecordedEvent[];
  const arqState = async (uuid: string) => (await ledger.request('GET', `/v2/accelerator_requests/${uuid}`, { token: nova })).body.state;
  const cleanStateIs = (state: string) => eventually(async () => (await device()).cleanState === state);

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_CLEAN_DEVICE_TYPES: 'GPU' });
    store = ledger.app.get(EVENT_STORE);
    stateDir = mkdtempSync(join(tmpdir(), 'clean-e2e-'));
    const token = ledger.token({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST });
    const logger = { log: () => undefined, warn: () => undefined, error: () => undefined };
    ({ agent, driver } = inProcessSimulatedAgent({
      ledgerUrls: [ledger.url],
      token,
      hostname: HOST,
      stateDir,
      simulated: { fpgas: 0, gpus: 1, nics: 0 },
      logger,
      dependencies: { jobWaitSeconds: 5 },
    }));
    agent.start();
    nova = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    expect((await admin('POST', '/v2/device_profiles', [{ name: 'gpu-dp', groups: [{ 'resources:PGPU': '1' }] }])).status).toBe(201);
    await eventually(async () => ((await admin('GET', `/api/v1/devices?hostname=${HOST}`)).body?.items?.length ?? 0) === 1);
    gpu = (await admin('GET', `/api/v1/devices?hostname=${HOST}`)).body.items[0];
    // Its first heartbeat has reached the ledger: from then on the agent takes the host's jobs.
    await eventually(async () => Boolean((await admin('GET', `/api/v1/hosts/${HOST}/telemetry`)).body?.agentVersion));
    rp = (await ledger.request('GET', `/api/v1/hosts/${HOST}/placement`, { token: ledger.adminToken, headers: await fresh() })).body.providers[0].uuid;
  });
  afterAll(async () => {
    await agent?.stop();
    await ledger?.close();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  /** Nova's create and bind; answers the request's uuid and the bind's HTTP status. */
  async function bind(): Promise<{ uuid: string; status: number; code: string | null; body: unknown }> {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova, body: { device_profile_name: 'gpu-dp' } });
    expect(created.status).toBe(201);
    const uuid: string = created.body.arqs[0].uuid;
    const patch = [
      { op: 'add', path: '/hostname', value: HOST },
      { op: 'add', path: '/device_rp_uuid', value: rp },
      { op: 'add', path: '/instance_uuid', value: crypto.randomUUID() },
    ];
    const response = await ledger.request('PATCH', '/v2/accelerator_requests', { token: nova, body: { [uuid]: patch } });
    return { uuid, status: response.status, code: response.headers.get('x-error-code'), body: response.body };
  }

  async function bound(): Promise<string> {
    const { uuid, status } = await bind();
    expect(status).toBe(202);
    await eventually(async () => (await arqState(uuid)) === 'Bound');
    return uuid;
  }

  async function unbind(uuid: string): Promise<void> {
    const patch = [
      { op: 'remove', path: '/hostname' },
      { op: 'remove', path: '/device_rp_uuid' },
      { op: 'remove', path: '/instance_uuid' },
    ];
    expect((await ledger.request('PATCH', '/v2/accelerator_requests', { token: nova, body: { [uuid]: patch } })).status).toBe(202);
  }

  /** A second tenant's bind while the GPU is not clean: refused by the device's stream, recorded failed on the request, never Bound. */
  async function expectRefused(): Promise<void> {
    const refused = await bind();
    expect([refused.status, refused.code]).toEqual([409, 'ARQ.BIND_FAILED']);
    expect(JSON.stringify(refused.body)).toContain('offers no clean attach handle: its clean failed (simulated clean failure)');
    expect(await arqState(refused.uuid)).not.toBe('Bound');
  }

  it('cleans a GPU released by unbind before offering it again, recording what ran', async () => {
    const first = await bound();
    await unbind(first);
    const events = await deviceEvents();
    const released = events.findIndex((event) => event.type === 'inventory.AttachHandleReleased');
    // The release and the start of cleaning are one append: consecutive, in one transaction, nothing between.
    expect(events[released + 1]).toMatchObject({ type: 'inventory.DeviceCleaningStarted', data: { attempt: 1, cause: 'released', arqUuids: [first] } });
    expect(events[released + 1]!.position).toBe(events[released]!.position + 1);

    await cleanStateIs('clean');
    const cleaned = (await deviceEvents()).find((event) => event.type === 'inventory.DeviceCleaned');
    expect(cleaned?.data).toMatchObject({ attempt: 1, ran: [{ step: expect.stringContaining('GPU memory scrub and reset'), result: 'ok' }] });
    expect(await provider()).toEqual([[0, 1, []]]);
    await unbind(await bound());
    await cleanStateIs('clean');
  });

  it('keeps a GPU whose clean failed reserved (clean-failed, with the reason) until an operator retries the clean', async () => {
    driver.failNext('clean');
    await unbind(await bound());
    await cleanStateIs('clean-failed');
    expect((await device()).cleanReason).toBe('simulated clean failure');
    expect(await provider()).toEqual([[1, 1, ['clean-failed']]]);
    await expectRefused();

    const retried = await admin('POST', `/api/v1/devices/${gpu.uuid}/clean/retry`);
    expect([retried.status, retried.body.appended]).toEqual([200, 1]);
    await cleanStateIs('clean');
    expect(await provider()).toEqual([[0, 1, []]]);
    await unbind(await bound());
    await cleanStateIs('clean');
  });

  it('offers a clean-failed GPU again when an operator releases it, and records who and why', async () => {
    driver.failNext('clean');
    await unbind(await bound());
    await cleanStateIs('clean-failed');
    const released = await admin('POST', `/api/v1/devices/${gpu.uuid}/clean/release`, { reason: 'inspected by hand' });
    expect([released.status, released.body.appended]).toEqual([200, 1]);
    expect((await deviceEvents()).at(-1)).toMatchObject({ type: 'inventory.DeviceCleanReleased', data: { by: 'admin', reason: 'inspected by hand' } });
    expect((await device()).cleanState).toBe('clean');
    const again = await admin('POST', `/api/v1/devices/${gpu.uuid}/clean/release`, {});
    expect([again.status, again.body.code]).toEqual([409, 'INVENTORY.CLEAN_NOT_FAILED']);
    await bound();
  });

  it('keeps what a fence released pending, and cleans it when the host is unfenced, before it is offered', async () => {
    expect((await deviceEvents()).at(-1)?.type).toBe('inventory.AttachHandleClaimed');
    const fenced = await admin('POST', `/api/v1/hosts/${HOST}/fence`, { reason: 'board swapped' });
    expect(fenced.status).toBe(200);
    const afterFence = await deviceEvents();
    expect(afterFence.slice(-3).map((event) => event.type)).toEqual(['inventory.DeviceFenced', 'inventory.AttachHandleReleased', 'inventory.DeviceCleanPending']);
    expect(await device()).toMatchObject({ cleanState: 'pending', cleanReason: 'board swapped' });

    expect((await admin('POST', `/api/v1/hosts/${HOST}/unfence`)).status).toBe(200);
    const unfenced = (await deviceEvents()).slice(afterFence.length);
    expect(unfenced.slice(0, 2)).toMatchObject([{ type: 'inventory.DeviceUnfenced' }, { type: 'inventory.DeviceCleaningStarted', data: { cause: 'unfenced' } }]);
    await cleanStateIs('clean');
    await bound();
  });
});
