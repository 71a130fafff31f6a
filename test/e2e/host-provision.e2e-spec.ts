import { createHash, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { workflowJobId } from '@ledger/workflows';
import { simulatedInterfaceId } from '../../apps/agent/src/drivers/simulated/simulated.driver';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentProcess } from '../support/agent-process';
import { imageBody, pemOf } from '../support/bitstreams';
import { startAgentOnLedger } from '../support/simulated-agent';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { ledgerctl } from '../support/ledgerctl-process';


interface StepRow {
  readonly step: string;
  readonly phase: string;
  readonly status: string;
}

describe('provisioning a host: steps 1–5 of the ten-step workflow, on real simulated agents', () => {
  let ledger: TestLedger;
  let store: EventStore;
  const agents: AgentProcess[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), 'ledger-agents-'));
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_BITSTREAM_ALLOW_UNSIGNED: 'true' });
    store = ledger.app.get<EventStore>(EVENT_STORE);
  });

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop('SIGKILL')));
    rmSync(stateDir, { recursive: true, force: true });
    await ledger?.close();
  });

  /** A host whose simulated agent runs (with `simulated` driver settings), up once the ledger has its heartbeat; answers its FPGA's uuid. */
  async function hostWithAgent(hostname: string, simulated?: Record<string, unknown>): Promise<string> {
    agents.push(await startAgentOnLedger(ledger, { hostname, dir: stateDir, simulated: simulated ?? {} }));
    const deployables = (await admin('GET', `/api/v1/deployables?hostname=${hostname}`)).body.items;
    return deployables.find((deployable: { resourceClass: string }) => deployable.resourceClass === 'FPGA').deviceUuid;
  }

  /** Registers a shell image whose recorded interface id is the one the simulated agent reads back; unsigned unless `signer` is given. */
  async function registerShell(signer: KeyObject | null = null): Promise<{ bitstreamId: string; sha256: string; interfaceId: string }> {
    const content = Buffer.from(`shell image ${randomUUID()} `.repeat(32));
    const sha256 = createHash('sha256').update(content).digest('hex');
    const interfaceId = simulatedInterfaceId(sha256);
    const registered = await admin('POST', '/api/v1/bitstreams', imageBody(content, signer, { functionId: '00'.repeat(16), interfaceId, name: 'shell' }));
    expect(registered.status).toBe(201);
    return { bitstreamId: registered.body.bitstreamId, sha256, interfaceId };
  }

  /** Starts a provisioning and waits for its workflow to end; answers the workflow's view. */
  async function provision(hostname: string, body: Record<string, unknown>) {
    const started = await admin('POST', `/api/v1/hosts/${hostname}/provision`, body);
    expect([started.status, started.headers.get('location')]).toEqual([202, `/api/v1/workflows/provision/${started.body.workflowId}`]);
    const location = started.headers.get('location')!;
    await eventually(async () => ['completed', 'compensated', 'failed'].includes((await admin('GET', location)).body?.status), 60_000);
    return (await admin('GET', location)).body;
  }

  const steps = (view: { steps: StepRow[] }) => view.steps.map((step) => [step.step, step.phase, step.status]);
  const eventsOf = async (stream: string, type: string) => (await store.readStream(stream)).filter((event) => event.type === type).map((event) => event.data as Record<string, unknown>);
  const device = async (uuid: string) => (await admin('GET', `/api/v1/devices/${uuid}`)).body;

  it('loads the registered shell, configures the VFs, and marks the host provisioned', async () => {
    const hostname = 'provision-ok';
    const fpga = await hostWithAgent(hostname);
    const shell = await registerShell();
    const view = await provision(hostname, { shell: shell.bitstreamId, vfs: 2 });
    expect([view.status, view.reason]).toEqual(['completed', null]);
    expect(steps(view)).toEqual([
      ['register-host', 'do', 'done'],
      ['agent-ready', 'do', 'done'],
      ['report-devices', 'do', 'done'],
      ['sync-placement', 'do', 'done'],
      ['program-shell', 'do', 'done'],
      ['verify-shell', 'do', 'done'],
      ['configure-vfs', 'do', 'done'],
      ['mark-provisioned', 'do', 'done'],
    ]);
    const probe = (await admin('GET', `/api/v1/jobs/${workflowJobId(`workflow-provision-${view.id}/agent-ready/do/1`)}`)).body;
    expect(probe).toMatchObject({ kind: 'probe', state: 'completed', timeoutSeconds: 600 });
    expect(view.steps[3].evidence).toEqual({ placement: expect.stringContaining('not configured') });
    expect(view.steps[5].evidence).toEqual({ sha256: shell.sha256, interfaceId: shell.interfaceId });
    await eventually(async () => (await eventsOf(`device-${fpga}`, 'inventory.VfsConfigured')).length === 1);
    expect(await eventsOf(`device-${fpga}`, 'inventory.ShellProgrammed')).toEqual([
      expect.objectContaining({ bitstreamId: shell.bitstreamId, sha256: shell.sha256, interfaceId: shell.interfaceId, requestedBy: { user: 'workflow:provision', project: null, workflow: `workflow-provision-${view.id}` } }),
    ]);
    expect(await eventsOf(`device-${fpga}`, 'inventory.VfsConfigured')).toEqual([expect.objectContaining({ numVfs: 2, previousNumVfs: 4 })]);
    await eventually(async () => (await device(fpga)).configuredVfs === 2);
    expect(await device(fpga)).toMatchObject({ shellInterfaceId: shell.interfaceId, configuredVfs: 2 });
    // The agent's next report carries the VFs: the FPGA's deployable offers them as its attach handles.
    const deployable = (await admin('GET', `/api/v1/deployables?device=${fpga}`)).body.items[0].uuid;
    const vfHandles = async () => (await admin('GET', `/api/v1/deployables/${deployable}`)).body.attachHandles.filter((handle: { kind: string }) => handle.kind === 'VF');
    await eventually(async () => (await vfHandles()).length === 2);
    await eventually(async () => (await admin('GET', `/api/v1/hosts/${hostname}`)).body.status === 'provisioned');
    const host = await store.readStream(`host-${hostname}`);
    expect(host.filter((event) => event.type.startsWith('inventory.HostProvision')).map((event) => event.type)).toEqual(['inventory.HostProvisioningStarted', 'inventory.HostProvisioned']);
  }, 120_000);

  it('refuses what it cannot start, recording nothing: an unknown bitstream or host, a host being provisioned, a bad body', async () => {
    const shell = await registerShell();
    const head = await store.headPosition();
    const unknownShell = await admin('POST', '/api/v1/hosts/provision-ok/provision', { shell: randomUUID(), vfs: 1 });
    expect([unknownShell.status, unknownShell.body.code]).toEqual([404, 'BITSTREAM.NOT_FOUND']);
    const unknownHost = await admin('POST', '/api/v1/hosts/nowhere/provision', { shell: shell.bitstreamId, vfs: 1 });
    expect([unknownHost.status, unknownHost.body.code]).toEqual([404, 'INVENTORY.HOST_NOT_FOUND']);
    const unknownDevice = await admin('POST', '/api/v1/hosts/provision-ok/provision', { shell: shell.bitstreamId, vfs: 1, device: randomUUID() });
    expect([unknownDevice.status, unknownDevice.body.code]).toEqual([404, 'PROVISION.DEVICE_NOT_FOUND']);
    const invalid = await admin('POST', '/api/v1/hosts/provision-ok/provision', { shell: shell.bitstreamId, vfs: -1 });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'REQUEST.INVALID']);
    const member = ledger.token({ user: 'm', project: 'p', roles: ['member'] });
    expect((await ledger.request('POST', '/api/v1/hosts/provision-ok/provision', { token: member, body: { shell: shell.bitstreamId, vfs: 1 } })).status).toBe(403);
    expect(await store.headPosition()).toBe(head);
    // The same host twice: the second request finds the first one running on the host stream.
    const first = await admin('POST', '/api/v1/hosts/provision-ok/provision', { shell: shell.bitstreamId, vfs: 2 });
    const second = await admin('POST', '/api/v1/hosts/provision-ok/provision', { shell: shell.bitstreamId, vfs: 2 });
    expect([first.status, second.status, second.body.code, second.body.provisionId]).toEqual([202, 409, 'INVENTORY.HOST_PROVISIONING', first.body.workflowId]);
    await eventually(async () => (await admin('GET', `/api/v1/workflows/provision/${first.body.workflowId}`)).body?.status === 'completed', 60_000);
  }, 120_000);

  it('refuses a shell signed by a key revoked since with 409 PROVISION.BITSTREAM_UNTRUSTED, recording nothing', async () => {
    const former = generateKeyPairSync('ed25519');
    const keyId = (await admin('POST', '/api/v1/signing-keys', { publicKeyPem: pemOf(former.publicKey), label: 'former' })).body.keyId;
    const shell = await registerShell(former.privateKey);
    expect((await admin('POST', `/api/v1/signing-keys/${keyId}/revoke`)).status).toBe(200);
    const head = await store.headPosition();
    const refused = await admin('POST', '/api/v1/hosts/provision-ok/provision', { shell: shell.bitstreamId, vfs: 2 });
    expect([refused.status, refused.headers.get('x-error-code'), refused.body.bitstreamId]).toEqual([409, 'PROVISION.BITSTREAM_UNTRUSTED', shell.bitstreamId]);
    expect(await store.headPosition()).toBe(head);
  });

  it('a shell that fails to load ends compensated: the host is marked failed, the device keeps its shell and VFs', async () => {
    const hostname = 'provision-shell-fails';
    const fpga = await hostWithAgent(hostname, { failNext: { program: 2 } });
    const before = await device(fpga);
    const shell = await registerShell();
    const view = await provision(hostname, { shell: shell.bitstreamId, vfs: 2 });
    expect(view.status).toBe('compensated');
    expect(view.reason).toBe('DRIVER.INJECTED_FAILURE: simulated shell program failure');
    expect(steps(view)).toEqual([
      ['register-host', 'do', 'done'],
      ['agent-ready', 'do', 'done'],
      ['report-devices', 'do', 'done'],
      ['sync-placement', 'do', 'done'],
      ['program-shell', 'do', 'failed'],
      ['register-host', 'compensate', 'compensated'],
    ]);
    expect(view.steps[4].attempts).toBe(2);
    expect(await eventsOf(`device-${fpga}`, 'inventory.ShellProgrammed')).toEqual([]);
    expect(await eventsOf(`device-${fpga}`, 'inventory.VfsConfigured')).toEqual([]);
    expect(await device(fpga)).toMatchObject({ shellInterfaceId: before.shellInterfaceId, configuredVfs: before.configuredVfs });
    expect(await eventsOf(`host-${hostname}`, 'inventory.HostProvisionFailed')).toEqual([expect.objectContaining({ provisionId: view.id, code: 'DRIVER.INJECTED_FAILURE' })]);
    await eventually(async () => (await admin('GET', `/api/v1/hosts/${hostname}`)).body.status === 'provision-failed');
  }, 120_000);

  it('VFs that cannot be configured end compensated: the previous shell is loaded back and the VF count stays', async () => {
    const hostname = 'provision-vfs-fail';
    // The simulated agent configures nothing when the count does not change, so the first provisioning (4, its count) meets no failure.
    const fpga = await hostWithAgent(hostname, { failNext: { configureVfs: 2 } });
    const golden = await registerShell();
    expect((await provision(hostname, { shell: golden.bitstreamId, vfs: 4 })).status).toBe('completed');
    const next = await registerShell();
    const view = await provision(hostname, { shell: next.bitstreamId, vfs: 2 });
    expect(view.status).toBe('compensated');
    expect(steps(view).slice(4)).toEqual([
      ['program-shell', 'do', 'done'],
      ['verify-shell', 'do', 'done'],
      ['configure-vfs', 'do', 'failed'],
      ['program-shell', 'compensate', 'compensated'],
      ['register-host', 'compensate', 'compensated'],
    ]);
    const loads = await eventsOf(`device-${fpga}`, 'inventory.ShellProgrammed');
    expect(loads.map((load) => load.bitstreamId)).toEqual([golden.bitstreamId, next.bitstreamId, golden.bitstreamId]);
    await eventually(async () => (await device(fpga)).shellInterfaceId === golden.interfaceId);
    expect(await device(fpga)).toMatchObject({ shellInterfaceId: golden.interfaceId, configuredVfs: 4 });
    const provisionings = (await store.readStream(`host-${hostname}`)).filter((event) => event.type.startsWith('inventory.HostProvision')).map((event) => event.type);
    expect(provisionings).toEqual(['inventory.HostProvisioningStarted', 'inventory.HostProvisioned', 'inventory.HostProvisioningStarted', 'inventory.HostProvisionFailed']);
  }, 180_000);

  it('does not load back a previous shell whose key was revoked since: the undo leaves the new shell loaded', async () => {
    const hostname = 'provision-revoked-previous';
    const fpga = await hostWithAgent(hostname, { failNext: { configureVfs: 2 } });
    const former = generateKeyPairSync('ed25519');
    const keyId = (await admin('POST', '/api/v1/signing-keys', { publicKeyPem: pemOf(former.publicKey), label: 'former' })).body.keyId;
    const golden = await registerShell(former.privateKey);
    expect((await provision(hostname, { shell: golden.bitstreamId, vfs: 4 })).status).toBe('completed');
    expect((await admin('POST', `/api/v1/signing-keys/${keyId}/revoke`)).status).toBe(200);
    const next = await registerShell();
    const view = await provision(hostname, { shell: next.bitstreamId, vfs: 2 });
    expect(view.status).toBe('compensated');
    expect(view.steps.find((step: StepRow & { evidence: unknown }) => step.step === 'program-shell' && step.phase === 'compensate').evidence).toEqual({ nothingToUndo: true });
    const loads = await eventsOf(`device-${fpga}`, 'inventory.ShellProgrammed');
    expect(loads.map((load) => load.bitstreamId)).toEqual([golden.bitstreamId, next.bitstreamId]);
    await eventually(async () => (await device(fpga)).shellInterfaceId === next.interfaceId);
  }, 180_000);

  it('ledgerctl host provision --wait follows the workflow to its end, a progress line per step', async () => {
    const hostname = 'provision-ledgerctl';
    await hostWithAgent(hostname);
    const shell = await registerShell();
    const env = { LEDGER_URL: ledger.url, LEDGER_TOKEN: ledger.adminToken };
    const run = await ledgerctl(env, 'host', 'provision', hostname, '--shell', shell.bitstreamId, '--vfs', '3', '--wait');
    expect([run.code, run.stderr]).toEqual([0, expect.stringMatching(/^provision [0-9a-f-]+: running, step [a-z-]+ \(do\)$/m)]);
    expect(run.stderr).toMatch(/^provision [0-9a-f-]+: completed$/m);
    expect(run.stdout).toMatch(new RegExp(`^workflow provision [0-9a-f-]+ on host-${hostname}: completed\n`));
    expect(run.stdout).toMatch(/^mark-provisioned +do +done/m);
    const invalid = await ledgerctl(env, 'host', 'provision', 'nowhere', '--shell', shell.bitstreamId, '--vfs', 'many');
    expect([invalid.code, invalid.stderr]).toEqual([expect.any(Number), expect.stringContaining('--vfs: "many" is not a whole number of VFs')]);
    expect(invalid.code).not.toBe(0);
  }, 120_000);
});
