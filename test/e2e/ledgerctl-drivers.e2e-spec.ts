import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { SimulatedDriver } from '../../apps/agent/src/drivers/simulated/simulated.driver';
import type { Agent } from '../../apps/agent/src/runtime/agent';
import type { AgentLogger } from '../../apps/agent/src/runtime/agent-logger';
import { inProcessSimulatedAgent } from '../support/in-process-agent';
import { type LedgerProcess, startLedgerProcess } from '../support/ledger-process';
import { ledgerctl } from '../support/ledgerctl-process';
import { ansibleUnavailable, describeWithService } from '../support/services';

const HOST = 'ledgerctl-drivers-1';
const INSTANCE = '11111111-2222-4333-8444-555555555555';
/** How often the spec re-checks a condition while waiting for the agent or the ledger to get there. */
const POLL_MS = 50;
const UUID_LINE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/;

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(POLL_MS);
  }
}

const quietLogger = (): AgentLogger => ({ log: () => undefined, warn: () => undefined, error: () => undefined });

describe('ledgerctl generic-driver commands against a ledger process and a simulated agent', () => {
  let dataDir: string;
  let stateDir: string;
  let ledger: LedgerProcess;
  let agent: Agent;
  let driver: SimulatedDriver;
  let env: Record<string, string>;
  let admin: (method: string, path: string, headers?: Record<string, string>) => Promise<any>;
  let gpu: { uuid: string; pciAddress: string };
  let fpga: { uuid: string; pciAddress: string };
  let fpgaVf: string;

  /**
   * How many jobs the ledger has recorded, read once the projections hold
   * everything appended so far (agents' reports append too, so the head
   * alone cannot tell whether a refused command requested something).
   */
  const jobCount = async (): Promise<number> => {
    const { headPosition } = (await (await fetch(`${ledger.url}/readyz`)).json()) as { headPosition: number };
    return (await admin('GET', '/api/v1/jobs?limit=1000', { 'x-ledger-min-position': String(headPosition) })).items.length;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledgerctl-drivers-ledger-'));
    stateDir = mkdtempSync(join(tmpdir(), 'ledgerctl-drivers-agent-'));
    ledger = await startLedgerProcess({ LEDGER_DATA_DIR: dataDir });
    // The CLI finds the admin token the ledger wrote under its data directory, as an operator's would.
    env = { LEDGER_DATA_DIR: dataDir, LEDGER_URL: ledger.url };
    const adminToken = readFileSync(join(dataDir, 'credentials', 'admin.token'), 'utf8').trim();
    admin = async (method, path, headers = {}) => (await fetch(`${ledger.url}${path}`, { method, headers: { ...headers, 'x-auth-token': adminToken } })).json();

    const credential = await ledgerctl(env, 'agent-credential', HOST);
    expect(credential.code).toBe(0);
    ({ agent, driver } = inProcessSimulatedAgent({
      ledgerUrls: [ledger.url],
      token: credential.stdout.trim(),
      hostname: HOST,
      stateDir,
      simulated: { fpgas: 1, fpgaVfs: 2, gpus: 1, nics: 0 },
      logger: quietLogger(),
      dependencies: { jobWaitSeconds: 5 },
    }));
    agent.start();

    // Up with both devices, and a heartbeat heard: the ledger takes jobs only once the agent has sent one.
    await waitUntil('the agent to be up with both devices', async () => {
      const host = await admin('GET', `/api/v1/hosts/${HOST}`);
      const telemetry = await admin('GET', `/api/v1/hosts/${HOST}/telemetry`);
      return host.agentStatus === 'up' && host.deviceCount === 2 && telemetry.agentVersion !== null ? host : undefined;
    });
    const devices = (await admin('GET', `/api/v1/devices?hostname=${HOST}`)).items as { uuid: string; type: string; pciAddress: string }[];
    gpu = devices.find((device) => device.type === 'GPU')!;
    fpga = devices.find((device) => device.type === 'FPGA')!;
    const [fpgaDeployable] = (await admin('GET', `/api/v1/deployables?hostname=${HOST}&resourceClass=FPGA`)).items;
    fpgaVf = (await admin('GET', `/api/v1/deployables/${fpgaDeployable.uuid}`)).attachHandles.find((handle: { kind: string }) => handle.kind === 'VF').address;
  }, 60_000);

  afterAll(async () => {
    await agent?.stop();
    // Not a graceful stop: this spec is about the CLI, and a SIGTERM'd ledger waits for connections this process may still hold.
    await ledger?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('service-list shows the agent up, when it was last seen and its devices', async () => {
    const table = await ledgerctl(env, 'service-list');
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toMatch(/^HOST +AGENT +LAST SEEN +DEVICES$/m);
    expect(table.stdout).toMatch(new RegExp(`^${HOST} +up +\\d{4}-\\d\\d-\\d\\dT\\S+Z \\(\\d+ s ago\\) +2$`, 'm'));
    const json = await ledgerctl(env, 'service-list', '--json');
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ hostname: HOST, agentStatus: 'up', deviceCount: 2 })]);
  });

  describeWithService('ansible-playbook', ansibleUnavailable())('driver software, with the real ansible-playbook into a sandbox', () => {
    it('install-driver --wait runs the playbook and prints the recap; driver-list then shows the version', async () => {
      const install = await ledgerctl(env, 'install-driver', HOST, 'simulated', '--version', '2.5.0', '--wait');
      expect(install.code).toBe(0);
      expect(install.stdout).toMatch(new RegExp(`^job \\S+: install-driver on ${HOST} completed in [\\d.]+ s$`, 'm'));
      expect(install.stdout).toMatch(/^ {2}recap +ok=\d+ changed=[1-9]\d* unreachable=0 failed=0 /m);
      expect(install.stdout).toMatch(/^ {2}playbook +\S+\/simulated\/install\.yml$/m);
      expect(install.stderr).toMatch(/taken by the agent \(attempt 1\)/);
      expect(existsSync(join(stateDir, 'sandbox', 'etc', 'ledger-agent', 'simulated.conf'))).toBe(true);

      const list = await ledgerctl(env, 'driver-list', HOST);
      expect(list).toMatchObject({ code: 0, stderr: '' });
      expect(list.stdout).toMatch(/^DRIVER +STATUS +VERSION +INSTALLED AT +LAST FAILURE$/m);
      expect(list.stdout).toMatch(/^simulated +installed +2\.5\.0 +\d{4}-\S+Z +-$/m);
    }, 120_000);

    it('update-driver --wait --json moves to the new version; uninstall-driver --wait takes it off the list', async () => {
      const update = await ledgerctl(env, 'update-driver', HOST, 'simulated', '--version', '2.6.0', '--wait', '--json');
      expect(update.code).toBe(0);
      expect(JSON.parse(update.stdout)).toMatchObject({ kind: 'update-driver', state: 'completed', evidence: { version: '2.6.0', recap: { failed: 0 } } });
      const listed = JSON.parse((await ledgerctl(env, 'driver-list', HOST, '--json')).stdout);
      expect(listed.drivers).toEqual([expect.objectContaining({ driver: 'simulated', status: 'installed', version: '2.6.0' })]);

      const uninstall = await ledgerctl(env, 'uninstall-driver', HOST, 'simulated', '--wait');
      expect(uninstall.code).toBe(0);
      expect(uninstall.stdout).toMatch(new RegExp(`^job \\S+: uninstall-driver on ${HOST} completed`, 'm'));
      expect((await ledgerctl(env, 'driver-list', HOST)).stdout).not.toMatch(/^simulated/m);
    }, 120_000);
  });

  it('without --wait, a job command prints the job id alone and the job goes on', async () => {
    const requested = await ledgerctl(env, 'discover-services');
    expect(requested).toMatchObject({ code: 0, stderr: '' });
    const [header, row, ...rest] = requested.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^HOST +JOB +STATE +OUTCOME$/);
    expect(rest).toEqual([]);
    const jobId = row.split(/ +/)[1];
    expect(row).toBe(`${HOST}  ${jobId}  requested  -`);
    const job = await waitUntil('the discover job to finish', async () => {
      const view = await admin('GET', `/api/v1/jobs/${jobId}`);
      return view.state === 'completed' ? view : undefined;
    });
    expect(job).toMatchObject({ hostname: HOST, kind: 'discover', evidence: { devices: 2 } });

    const detach = await ledgerctl(env, 'detach-instance', gpu.uuid, INSTANCE);
    expect(detach).toMatchObject({ code: 0, stderr: '' });
    expect(detach.stdout).toMatch(UUID_LINE);
    await waitUntil('the detach job to finish', async () => ((await admin('GET', `/api/v1/jobs/${detach.stdout.trim()}`)).state === 'completed' ? true : undefined));
  });

  it('discover-services --wait on a named host prints what its agent found', async () => {
    const run = await ledgerctl(env, 'discover-services', HOST, '--wait');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${HOST} +\\S+ +completed +2 device\\(s\\)$`, 'm'));
  });

  it('attach-instance --wait passes the GPU through; detach-instance by a VF address gives the VF back', async () => {
    const attach = await ledgerctl(env, 'attach-instance', gpu.uuid, INSTANCE, '--wait');
    expect(attach.code).toBe(0);
    expect(attach.stdout).toMatch(new RegExp(`^job \\S+: attach on ${HOST} completed`, 'm'));
    expect(attach.stdout).toMatch(new RegExp(`^ {2}params +deviceUuid=${gpu.uuid} instanceUuid=${INSTANCE} pciAddress=${gpu.pciAddress}$`, 'm'));
    expect(attach.stdout).toMatch(/^ {2}driver +vfio-pci$/m);

    const vfAttach = await ledgerctl(env, 'attach-instance', `${fpgaVf}@${HOST}`, INSTANCE, '--wait', '--json');
    expect(vfAttach.code).toBe(0);
    expect(JSON.parse(vfAttach.stdout)).toMatchObject({ kind: 'attach', state: 'completed', params: { pciAddress: fpgaVf }, evidence: { driver: 'vfio-pci' } });
    // lspci's short form (no PCI domain) names the same VF.
    const vfDetach = await ledgerctl(env, 'detach-instance', `${fpgaVf.slice(5)}@${HOST}`, INSTANCE, '--wait', '--json');
    expect(vfDetach.code).toBe(0);
    expect(JSON.parse(vfDetach.stdout)).toMatchObject({ kind: 'detach', state: 'completed', params: { pciAddress: fpgaVf }, evidence: { changed: true } });
  });

  it('attach-instance by an FPGA\'s uuid passes its first free VF through (its VFs are its handles); detach-instance by the uuid takes it back', async () => {
    const attach = await ledgerctl(env, 'attach-instance', fpga.uuid, INSTANCE, '--wait', '--json');
    expect(attach).toMatchObject({ code: 0 });
    expect(JSON.parse(attach.stdout)).toMatchObject({ state: 'completed', params: { pciAddress: fpga.pciAddress }, evidence: { pciAddress: fpgaVf, driver: 'vfio-pci', changed: true } });
    const detach = await ledgerctl(env, 'detach-instance', fpga.uuid, INSTANCE, '--wait');
    expect(detach.code).toBe(0);
    expect(detach.stdout).toMatch(new RegExp(`^ {2}pciAddress +${fpgaVf}$`, 'm'));
    expect(detach.stdout).toMatch(/^ {2}changed +true$/m);
  });

  it('a job that fails on the host exits 3 with its code and reason, and prints the state the device was left in', async () => {
    // Attached by the test before, or not: either way a detach leaves it with its host driver, so the attach below has work to do.
    expect((await ledgerctl(env, 'detach-instance', gpu.uuid, INSTANCE, '--wait')).code).toBe(0);
    driver.failNext('attach');
    const failed = await ledgerctl(env, 'attach-instance', `${gpu.pciAddress}@${HOST}`, INSTANCE, '--wait');
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(new RegExp(`^ledgerctl: job \\S+ \\(attach\\) failed on ${HOST}: DRIVER\\.INJECTED_FAILURE: simulated attach failure$`, 'm'));
    expect(failed.stdout).toMatch(/^ {2}deviceState +bound to \S+ \(previous driver restored\)$/m);

    // The agent refuses a driver it does not ship; the ledger records the failure and the CLI says so.
    const unknownDriver = await ledgerctl(env, 'install-driver', HOST, 'no-such-driver', '--wait');
    expect(unknownDriver.code).toBe(3);
    expect(unknownDriver.stderr).toMatch(/: JOB\.PARAMS_INVALID: params\.driver must be one of /);
  });

  it("refuses an unknown host or device with exit 1 and the ledger's code, and requests nothing", async () => {
    const before = await jobCount();
    const install = await ledgerctl(env, 'install-driver', 'nowhere', 'simulated');
    expect(install).toMatchObject({ code: 1, stdout: '', stderr: 'ledgerctl: INVENTORY.HOST_NOT_FOUND: host nowhere has never reported\n' });
    expect((await ledgerctl(env, 'driver-list', 'nowhere')).stderr).toMatch(/^ledgerctl: INVENTORY\.HOST_NOT_FOUND: /);
    const discover = await ledgerctl(env, 'discover-services', HOST, 'nowhere');
    expect(discover).toMatchObject({ code: 1, stdout: '' });
    expect(discover.stderr).toMatch(/^ledgerctl: INVENTORY\.HOST_NOT_FOUND: host nowhere/);
    const noDevice = await ledgerctl(env, 'attach-instance', '0193a1b2-0000-7000-8000-0000000000aa', INSTANCE);
    expect(noDevice).toMatchObject({ code: 1 });
    expect(noDevice.stderr).toMatch(/^ledgerctl: INVENTORY\.DEVICE_NOT_FOUND: /);
    const noAddress = await ledgerctl(env, 'attach-instance', `0000:99:00.0@${HOST}`, INSTANCE);
    expect(noAddress).toMatchObject({ code: 1, stderr: `ledgerctl: INVENTORY.DEVICE_NOT_FOUND: host ${HOST} reports no device or VF at 0000:99:00.0\n` });
    const badDriver = await ledgerctl(env, 'install-driver', HOST, 'Not_A_Driver');
    expect(badDriver.code).toBe(1);
    expect(badDriver.stderr).toMatch(/^ledgerctl: JOB\.INVALID: job: params\.driver must match /);
    const badInstance = await ledgerctl(env, 'attach-instance', gpu.uuid, 'not-a-uuid');
    expect(badInstance.code).toBe(1);
    expect(badInstance.stderr).toMatch(/^ledgerctl: JOB\.INVALID: job: params\.instanceUuid /);
    expect(await jobCount()).toBe(before);
  });

  it('exits 2 on bad usage, and requests nothing', async () => {
    const before = await jobCount();
    const usage = [
      ['update-driver', HOST, 'simulated'],
      ['install-driver', HOST],
      ['install-driver', HOST, 'simulated', '--timeout', '0'],
      ['discover-services', '--timeout', 'soon'],
      ['attach-instance', 'fpga-1', INSTANCE],
      ['detach-instance', `0000:3b:00.9@${HOST}`, INSTANCE],
      ['driver-list'],
      ['service-list', 'extra'],
    ];
    for (const args of usage) {
      const run = await ledgerctl(env, ...args);
      expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code: 2, stdout: '' });
    }
    expect(await jobCount()).toBe(before);
  });

  // Last: the host reported by hand stays in the ledger, and every later discover-services would skip it.
  it('discover-services skips a host no agent runs on (reported by hand), names it at once, still asks the others, and exits 1', async () => {
    const byHand = 'reported-by-hand-1';
    expect((await fetch(`${ledger.url}/api/v1/hosts/${byHand}/report`, {
      method: 'PUT',
      headers: { 'x-auth-token': readFileSync(join(dataDir, 'credentials', 'admin.token'), 'utf8').trim(), 'content-type': 'application/json' },
      body: JSON.stringify({ devices: [] }),
    })).status).toBe(200);

    const run = await ledgerctl(env, 'discover-services', '--wait');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^ledgerctl: skipped ${byHand}: JOB\\.AGENT_UNAVAILABLE: no agent has run on ${byHand}: `, 'm'));
    expect(run.stderr).toMatch(new RegExp(`^ledgerctl: no agent to ask on ${byHand}: skipped$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^${HOST} +\\S+ +completed +2 device\\(s\\)$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^${byHand} +- +skipped +JOB\\.AGENT_UNAVAILABLE: no agent has run on ${byHand}: `, 'm'));

    const json = await ledgerctl(env, 'discover-services', byHand, '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual([
      { hostname: byHand, kind: 'discover', jobId: null, state: 'skipped', code: 'JOB.AGENT_UNAVAILABLE', reason: expect.stringMatching(/^no agent has run on /) },
    ]);
  });
});
