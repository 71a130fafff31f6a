import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import type { SimulatedDriver } from '../../apps/agent/src/drivers/simulated/simulated.driver';
import type { Agent } from '../../apps/agent/src/runtime/agent';
import { inProcessSimulatedAgent } from '../support/in-process-agent';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { ledgerctl } from '../support/ledgerctl-process';

const HOST = 'compute-health';
const POLICY = `version: e2e-7
rules:
  - match: { kind: xid, codes: [79] }
    effect: drain
    recovery: operator
  - match: { kind: ecc, detail: uncorrected }
    effect: reserve
    recovery: { healthyChecks: 3 }
`;

interface Provider {
  readonly uuid: string;
  readonly deviceUuid: string;
  readonly reserved: number;
  readonly reservedBecause: readonly string[];
}

/**
 * Health that recovers under a policy (issue 24, part 4), with a simulated
 * agent heartbeating every second: a cause the agent reports is judged by
 * the policy file the ledger was started with, a drained device's holder is
 * named, "who held it when it failed" is one query, and the device comes
 * back by itself or by an operator's clear, as the policy says.
 */
describe('health under a policy (simulated agent, embedded SQLite)', () => {
  let dir: string;
  let ledger: TestLedger;
  let store: EventStore;
  let agent: Agent;
  let driver: SimulatedDriver;
  let nova: string;
  let providers: Provider[];
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });
  const fresh = async () => ({ 'x-ledger-min-position': String(await store.headPosition()) });
  const providerOf = async (deviceUuid: string): Promise<Provider> =>
    (await ledger.request('GET', `/api/v1/hosts/${HOST}/placement`, { token: ledger.adminToken, headers: await fresh() })).body.providers.find(
      (provider: Provider) => provider.deviceUuid === deviceUuid,
    );
  /** The Placement provider of a simulated device (`gpu0`, `gpu1`). */
  const providerOfKey = async (key: string): Promise<Provider> => {
    const pci = driver.devices().find((device) => device.key === key)!.pciAddress;
    const device = (await admin('GET', `/api/v1/devices?hostname=${HOST}`)).body.items.find((item: { pciAddress: string }) => item.pciAddress === pci);
    return providers.find((provider) => provider.deviceUuid === device.uuid)!;
  };
  const healthEvents = async (deviceUuid: string) =>
    ((await store.readStream(`device-${deviceUuid}`)) as RecordedEvent[]).filter((event) => event.type.startsWith('inventory.DeviceHealth') || event.type === 'inventory.DeviceDrainRequested');
  /** The live view shows what the last heartbeat said of the device: that heartbeat's command has run. */
  const heartbeatsSaid = (deviceUuid: string, health: string) =>
    eventually(async () => {
      const live = await admin('GET', `/api/v1/hosts/${HOST}/telemetry`);
      return live.body?.devices?.some((device: { deviceUuid: string; health: string }) => device.deviceUuid === deviceUuid && device.health === health) === true;
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'health-policy-e2e-'));
    writeFileSync(join(dir, 'health-policy.yaml'), POLICY);
    ledger = await startTestLedger({ LEDGER_HEALTH_POLICY_FILE: join(dir, 'health-policy.yaml') });
    store = ledger.app.get(EVENT_STORE);
    nova = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    const token = ledger.token({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST });
    const logger = { log: () => undefined, warn: () => undefined, error: () => undefined };
    ({ agent, driver } = inProcessSimulatedAgent({ ledgerUrls: [ledger.url], token, hostname: HOST, stateDir: dir, simulated: { fpgas: 0, gpus: 2, nics: 0 }, logger }));
    agent.start();
    await eventually(async () => (await admin('GET', `/api/v1/hosts/${HOST}/placement`)).body?.providers?.length === 2);
    providers = (await admin('GET', `/api/v1/hosts/${HOST}/placement`)).body.providers;
    const profile = await admin('POST', '/v2/device_profiles', [{ name: 'gpu-dp', groups: [{ 'resources:PGPU': '1' }] }]);
    expect(profile.status).toBe(201);
  });
  afterAll(async () => {
    await agent?.stop();
    await ledger?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drains a held GPU on Xid 79: the holder is named, Placement reserves it, and only an operator brings it back', async () => {
    const gpu = await providerOfKey('gpu0');
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova, body: { device_profile_name: 'gpu-dp' } });
    const arq: string = created.body.arqs[0].uuid;
    const bind = { [arq]: [{ op: 'add', path: '/hostname', value: HOST }, { op: 'add', path: '/device_rp_uuid', value: gpu.uuid }, { op: 'add', path: '/instance_uuid', value: crypto.randomUUID() }] };
    expect((await ledger.request('PATCH', '/v2/accelerator_requests', { token: nova, body: bind })).status).toBe(202);
    await eventually(async () => (await ledger.request('GET', `/v2/accelerator_requests/${arq}`, { token: nova })).body.state === 'Bound');

    driver.setHealth('gpu0', 'failed', 'Xid 79: GPU has fallen off the bus', { kind: 'xid', code: 79 });
    await eventually(async () => (await healthEvents(gpu.deviceUuid)).length === 2);
    const [changed, drain] = await healthEvents(gpu.deviceUuid);
    expect(changed.data).toMatchObject({ health: 'failed', cause: { kind: 'xid', code: 79 }, effect: 'drain', recovery: 'operator', policyVersion: 'e2e-7' });
    expect(drain).toMatchObject({ type: 'inventory.DeviceDrainRequested', data: { holders: [expect.objectContaining({ arqUuid: arq, projectId: 'tenant-a' })], policyVersion: 'e2e-7' } });
    expect(await providerOf(gpu.deviceUuid)).toMatchObject({ reserved: 1, reservedBecause: ['unhealthy'] });

    // Who held it when it failed: one query, over REST, GraphQL and ledgerctl.
    const holders = await ledger.request('GET', `/api/v1/audit/health-holders?device=${gpu.deviceUuid}`, { token: ledger.adminToken, headers: await fresh() });
    expect(holders.body).toMatchObject({ projects: ['tenant-a'], reports: [{ arqUuid: arq, health: 'failed', cause: { kind: 'xid', code: 79 }, effect: 'drain', policyVersion: 'e2e-7' }] });
    const graphql = await admin('POST', '/graphql', { query: `{ healthHolders(device: "${gpu.deviceUuid}") { projectId arqUuid effect policyVersion cause { kind code } } }` });
    expect(graphql.body.data.healthHolders).toEqual([{ projectId: 'tenant-a', arqUuid: arq, effect: 'drain', policyVersion: 'e2e-7', cause: { kind: 'xid', code: 79 } }]);
    const env = { LEDGER_URL: ledger.url, LEDGER_TOKEN: ledger.adminToken };
    const cli = await ledgerctl(env, 'audit', 'health-holders', '--device', gpu.deviceUuid, '--json');
    expect([cli.code, JSON.parse(cli.stdout).projects]).toEqual([0, ['tenant-a']]);

    // The timeline shows the health beside the tenancy.
    const timeline = (await admin('GET', `/api/v1/devices/${gpu.deviceUuid}/timeline?limit=1000`)).body.entries.map((entry: { summary: string }) => entry.summary);
    expect(timeline).toEqual(expect.arrayContaining([expect.stringMatching(/claimed by request/), 'health failed: Xid 79: GPU has fallen off the bus (xid 79; drain, until an operator clears it; policy e2e-7)']));

    // Healthy again, by the agent's word: the policy waits for an operator.
    driver.setHealth('gpu0', null);
    await heartbeatsSaid(gpu.deviceUuid, 'ok');
    await heartbeatsSaid(gpu.deviceUuid, 'ok');
    expect(await healthEvents(gpu.deviceUuid)).toHaveLength(2);
    expect((await providerOf(gpu.deviceUuid)).reserved).toBe(1);

    const cleared = await ledgerctl(env, 'device', 'health', 'clear', gpu.deviceUuid, '--note', 'GPU reset, burn-in passed');
    expect([cleared.code, cleared.stdout]).toEqual([0, `${gpu.deviceUuid}: healthy again, offered once more\n`]);
    expect((await healthEvents(gpu.deviceUuid)).at(-1)?.data).toMatchObject({ health: 'ok', effect: 'none', policyVersion: 'e2e-7', recoveredBy: { operator: 'admin', note: 'GPU reset, burn-in passed' } });
    expect(await providerOf(gpu.deviceUuid)).toMatchObject({ reserved: 0, reservedBecause: [] });
    const again = await admin('POST', `/api/v1/devices/${gpu.deviceUuid}/health/clear`, {});
    expect([again.status, again.body.appended]).toEqual([200, 0]);
  });

  it('reserves a GPU on uncorrected ECC errors and offers it again after 3 healthy checks in a row', async () => {
    const gpu = await providerOfKey('gpu1');
    driver.setHealth('gpu1', 'degraded', 'ECC: 2 uncorrected error(s)', { kind: 'ecc', detail: 'uncorrected', count: 2 });
    await eventually(async () => (await healthEvents(gpu.deviceUuid)).length === 1);
    expect((await healthEvents(gpu.deviceUuid))[0].data).toMatchObject({ health: 'degraded', effect: 'reserve', recovery: { healthyChecks: 3 }, policyVersion: 'e2e-7' });
    expect(await providerOf(gpu.deviceUuid)).toMatchObject({ reserved: 1, reservedBecause: ['unhealthy'] });

    driver.setHealth('gpu1', null);
    await eventually(async () => ((await healthEvents(gpu.deviceUuid)).at(-1)?.data as { health?: string } | undefined)?.health === 'ok');
    expect((await healthEvents(gpu.deviceUuid)).map((event) => [event.type, (event.data as { healthyChecks?: number }).healthyChecks ?? null])).toEqual([
      ['inventory.DeviceHealthChanged', null],
      ['inventory.DeviceHealthCheckPassed', 1],
      ['inventory.DeviceHealthCheckPassed', 2],
      ['inventory.DeviceHealthChanged', null],
    ]);
    expect((await healthEvents(gpu.deviceUuid)).at(-1)?.data).toMatchObject({ recoveredBy: { healthyChecks: 3 } });
    await eventually(async () => (await providerOf(gpu.deviceUuid)).reserved === 0);
  });

  it('refuses a heartbeat with a bad cause (400 REQUEST.INVALID), recording nothing', async () => {
    const token = ledger.token({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST });
    const pci = driver.devices()[0].pciAddress;
    const head = await store.headPosition();
    const body = { agentVersion: '0', intervalSeconds: 1, devices: [{ pciAddress: pci, health: 'failed', cause: { kind: 'gremlins' } }] };
    const refused = await ledger.request('POST', `/api/v1/hosts/${HOST}/heartbeat`, { token, body });
    expect([refused.status, refused.body.code]).toEqual([400, 'REQUEST.INVALID']);
    expect(await store.headPosition()).toBe(head);
  });
});
