import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadOrCreateCredentials, type TokenCodec } from '@ledger/auth';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { deviceStream } from '@ledger/inventory';
import { dataFiles, loadLedgerConfig } from '@ledger/config';
import type { SimulatedDriver } from '../../apps/agent/src/drivers/simulated/simulated.driver';
import type { Agent } from '../../apps/agent/src/runtime/agent';
import type { AgentLogger } from '../../apps/agent/src/runtime/agent-logger';
import { createLedgerApp } from '../../apps/ledger/src/create-ledger-app';
import { startAgentProcess } from '../support/agent-process';
import { inProcessSimulatedAgent } from '../support/in-process-agent';
import { keepLog } from '../support/kept-logs';
import { freePort } from '../support/ledger-process';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { ansibleUnavailable } from '../support/services';

/** How often a condition is re-checked while waiting for the agent or the ledger to get there. */
const POLL_MS = 50;
/** One FPGA (one region, 2 VFs) and one PGPU: small enough to read, every kind of job has a target. */
const SIMULATED_HOST = { fpgas: 1, fpgaVfs: 2, gpus: 1, nics: 0 };
const BITSTREAM = Buffer.from('simulated bitstream for the e2e run');
const BITSTREAM_SHA256 = createHash('sha256').update(BITSTREAM).digest('hex');

type Request = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

interface Settings {
  readonly ledgerUrl: string;
  readonly token: string;
  readonly hostname: string;
  readonly stateDir: string;
}

/** The agent as main.ts builds it, in-process, with the real simulated driver and quick intervals. */
function simulatedAgent({ ledgerUrl, token, hostname, stateDir }: Settings, options: { gate?: Promise<void> } = {}) {
  const logger = quietLogger();
  // With a gate, configure-vfs (the only operation given a latency) waits until the spec opens it.
  const simulated = options.gate ? { ...SIMULATED_HOST, latencyMs: { configureVfs: 1 } } : SIMULATED_HOST;
  const { agent, driver } = inProcessSimulatedAgent({
    ledgerUrls: [ledgerUrl],
    token,
    hostname,
    stateDir,
    simulated,
    logger,
    sleep: () => options.gate ?? Promise.resolve(),
    dependencies: { jobWaitSeconds: 5 },
  });
  return { agent, driver, logger };
}

const quietLogger = (): AgentLogger & { lines: string[] } => {
  const lines: string[] = [];
  return { lines, log: (m) => lines.push(m), warn: (m) => lines.push(`WARN ${m}`), error: (m) => lines.push(`ERROR ${m}`) };
};

/** Re-checks `probe` until it returns something defined; fails naming `what` after `timeoutMs`. */
async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(POLL_MS);
  }
}

interface ListedDevice {
  readonly uuid: string;
  readonly type: string;
  readonly pciAddress: string;
}

const reportedDevices = (request: Request, hostname: string, count: number) =>
  waitUntil(`${count} device(s) of ${hostname} in the inventory`, async () => {
    const response = await request('GET', `/api/v1/devices?hostname=${hostname}`);
    const items = (response.body?.items ?? []) as ListedDevice[];
    return items.length === count ? items : undefined;
  });

/** The agent's first heartbeat has reached the ledger: from then on it takes the host's jobs (JOB.AGENT_UNAVAILABLE before). */
const heartbeatHeard = (request: Request, hostname: string) =>
  waitUntil(`a heartbeat of ${hostname}`, async () => ((await request('GET', `/api/v1/hosts/${hostname}/telemetry`)).body?.agentVersion ? true : undefined));

const fpgaDeployable = async (request: Request, hostname: string) =>
  (await request('GET', `/api/v1/deployables?hostname=${hostname}&resourceClass=FPGA`)).body.items[0] as { uuid: string; count: number; traits: string[] };

const finishedJob = (request: Request, jobId: string) =>
  waitUntil(`job ${jobId} to finish`, async () => {
    const response = await request('GET', `/api/v1/jobs/${jobId}`);
    return response.status === 200 && ['completed', 'failed'].includes(response.body.state) ? response.body : undefined;
  });

describe('the agent against a real ledger', () => {
  const HOST = 'agent-e2e-1';
  let ledger: TestLedger;
  let stateDir: string;
  let imageServer: Server;
  let imageUrl: string;
  let driver: SimulatedDriver;
  let agent: Agent;
  let admin: Request;
  let fpga: ListedDevice;

  beforeAll(async () => {
    ledger = await startTestLedger();
    stateDir = mkdtempSync(join(tmpdir(), 'agent-e2e-'));
    imageServer = createServer((_, response) => response.writeHead(200).end(BITSTREAM));
    imageServer.listen(0, '127.0.0.1');
    await once(imageServer, 'listening');
    imageUrl = `http://127.0.0.1:${(imageServer.address() as { port: number }).port}/bitstream.gbs`;
    admin = (method, path, body) => ledger.request(method, path, { token: ledger.adminToken, body });
    const token = ledger.token({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST });
    ({ agent, driver } = simulatedAgent({ ledgerUrl: ledger.url, token, hostname: HOST, stateDir }));
    agent.start();
  });
  afterAll(async () => {
    await agent?.stop();
    await ledger?.close();
    imageServer?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const requestJob = async (kind: string, params: Record<string, unknown>, timeoutSeconds = 60) => {
    const requested = await admin('POST', `/api/v1/hosts/${HOST}/jobs`, { kind, params, timeoutSeconds });
    expect(requested.status).toBe(202);
    return finishedJob(admin, requested.body.jobId as string);
  };

  it("puts the host's accelerators into the ledger's inventory on start", async () => {
    const devices = await reportedDevices(admin, HOST, 2);
    expect(devices.map((device) => device.type).sort()).toEqual(['FPGA', 'GPU']);
    fpga = devices.find((device) => device.type === 'FPGA')!;
    expect((await fpgaDeployable(admin, HOST)).count).toBe(2);
  });

  it("sends heartbeats whose telemetry and health the ledger's live view shows", async () => {
    const live = await waitUntil('telemetry of both devices', async () => {
      const response = await admin('GET', `/api/v1/hosts/${HOST}/telemetry`);
      return response.status === 200 && response.body.devices.length === 2 ? response.body : undefined;
    });
    expect(live).toMatchObject({ hostname: HOST, agentVersion: '0.1.0', status: 'up' });
    expect(live.devices.find((device: { deviceUuid: string }) => device.deviceUuid === fpga.uuid)).toMatchObject({
      pciAddress: fpga.pciAddress,
      health: 'ok',
      telemetry: { temperatureC: expect.any(Number), utilizationPct: expect.any(Number) },
    });
    driver.setHealth(fpga.pciAddress, 'degraded', 'PCIe link degraded');
    const degraded = await waitUntil('the degraded FPGA', async () => {
      const response = await admin('GET', `/api/v1/hosts/${HOST}/telemetry`);
      return response.body?.devices?.find((device: { deviceUuid: string; health: string }) => device.deviceUuid === fpga.uuid && device.health === 'degraded');
    });
    expect(degraded.healthReason).toBe('PCIe link degraded');
    driver.setHealth(fpga.pciAddress, null);
  });

  it('carries out a job an admin requests, records it completed with the evidence, and reports the change at once', async () => {
    const job = await requestJob('configure-vfs', { deviceUuid: fpga.uuid, pciAddress: fpga.pciAddress, numVfs: 4 });
    expect(job).toMatchObject({ hostname: HOST, kind: 'configure-vfs', state: 'completed', evidence: { numVfs: 4, previousNumVfs: 2 } });
    // The report interval is an hour: only the change check between intervals can bring this in.
    await waitUntil('4 VFs in the inventory', async () => ((await fpgaDeployable(admin, HOST)).count === 4 ? true : undefined));
  });

  it('programs the FPGA with a downloaded, verified image, and refuses a wrong checksum without touching the device', async () => {
    const deployable = await fpgaDeployable(admin, HOST);
    const params = { deviceUuid: fpga.uuid, deployableUuid: deployable.uuid, pciAddress: fpga.pciAddress };
    const wrong = await requestJob('program', { ...params, image: { url: imageUrl, sha256: 'ab'.repeat(32) } });
    expect(wrong).toMatchObject({ state: 'failed', code: 'JOB.IMAGE_CHECKSUM_MISMATCH', evidence: { actual: BITSTREAM_SHA256, deviceState: 'unchanged' } });

    const programmed = await requestJob('program', { ...params, image: { url: imageUrl, sha256: BITSTREAM_SHA256 } });
    expect(programmed).toMatchObject({ state: 'completed', evidence: { sha256: BITSTREAM_SHA256, previousFunctionId: null, functionId: expect.any(String) } });
    const functionTrait = `CUSTOM_FPGA_FUNCTION_ID_INTEL_${(programmed.evidence.functionId as string).toUpperCase()}`;
    await waitUntil('the new function trait', async () => ((await fpgaDeployable(admin, HOST)).traits.includes(functionTrait) ? true : undefined));
    expect(readdirSync(join(stateDir, 'images'))).toEqual([]);
  });

  it('records a program as a fact on the device, which /v2/deployables shows as bitstream_id; a failed program is a fact too', async () => {
    const store = ledger.app.get<EventStore>(EVENT_STORE);
    const deployable = await fpgaDeployable(admin, HOST);
    const bitstreamId = randomUUID();
    const params = { deviceUuid: fpga.uuid, deployableUuid: deployable.uuid, pciAddress: fpga.pciAddress, image: { url: imageUrl, sha256: BITSTREAM_SHA256 } };
    const programmed = await requestJob('program', { ...params, bitstreamId });
    expect(programmed).toMatchObject({ state: 'completed' });
    const factOf = (jobId: string) =>
      waitUntil(`the device fact of job ${jobId}`, async () => (await store.readStream(deviceStream(fpga.uuid))).find((event) => (event.data as { jobId?: string }).jobId === jobId));
    const fact = await factOf(programmed.jobId);
    expect(fact.type).toBe('inventory.RegionProgrammed');
    expect(fact.data).toMatchObject({ jobId: programmed.jobId, bitstreamId, functionId: programmed.evidence.functionId, requestedBy: { user: 'admin', project: 'admin', workflow: null } });
    const v2 = await ledger.request('GET', `/v2/deployables/${deployable.uuid}`, { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(fact.position) } });
    expect([v2.status, v2.body.bitstream_id]).toEqual([200, bitstreamId]);
    const listed = await ledger.request('GET', '/v2/deployables', { token: ledger.adminToken });
    expect(listed.body.deployables.find((d: { uuid: string }) => d.uuid === deployable.uuid).bitstream_id).toBe(bitstreamId);

    driver.failNext('program');
    const failed = await requestJob('program', { ...params, image: { url: imageUrl, sha256: BITSTREAM_SHA256 } });
    expect(failed).toMatchObject({ state: 'failed', code: 'DRIVER.INJECTED_FAILURE' });
    const failure = await factOf(failed.jobId);
    expect(failure.type).toBe('inventory.RegionProgramFailed');
    expect(failure.data).toMatchObject({ jobId: failed.jobId, code: 'DRIVER.INJECTED_FAILURE', regionHolds: { functionId: programmed.evidence.functionId } });
    const native = await admin('GET', `/api/v1/deployables/${deployable.uuid}`);
    expect(native.body).toMatchObject({ bitstreamId, functionId: programmed.evidence.functionId });
  });

  it('probes a function the agent reaches, and records an injected probe failure', async () => {
    const reached = await requestJob('probe', { deviceUuid: fpga.uuid, pciAddress: fpga.pciAddress });
    expect(reached).toMatchObject({ state: 'completed', evidence: { pciAddress: fpga.pciAddress, vendorId: '8086', productId: '09c4' } });
    driver.failNext('probe');
    expect(await requestJob('probe', { deviceUuid: fpga.uuid, pciAddress: fpga.pciAddress })).toMatchObject({ state: 'failed', code: 'DRIVER.UNREACHABLE' });
  });

  it('records a failed operation with the state the device was left in', async () => {
    driver.failNext('configureVfs');
    const job = await requestJob('configure-vfs', { deviceUuid: fpga.uuid, pciAddress: fpga.pciAddress, numVfs: 8 });
    expect(job).toMatchObject({ state: 'failed', code: 'DRIVER.INJECTED_FAILURE', evidence: { numVfs: 4, deviceState: '4 VF(s) (previous count restored)' } });
    expect((await fpgaDeployable(admin, HOST)).count).toBe(4);
  });

  (ansibleUnavailable() ? it.skip : it)("installs the driver's software with its shipped Ansible playbook and records the recap", async () => {
    const job = await requestJob('install-driver', { driver: 'simulated', version: '2.5.0' }, 120);
    expect(job).toMatchObject({ state: 'completed', evidence: { driver: 'simulated', version: '2.5.0', recap: { failed: 0, unreachable: 0 } } });
    expect(job.evidence.recap.changed).toBeGreaterThan(0);
    expect(existsSync(join(stateDir, 'sandbox', 'etc', 'ledger-agent', 'simulated.conf'))).toBe(true);
    const drivers = await waitUntil('the installed driver', async () => {
      const response = await admin('GET', `/api/v1/hosts/${HOST}/drivers`);
      return response.status === 200 && JSON.stringify(response.body).includes('2.5.0') ? response.body : undefined;
    });
    expect(JSON.stringify(drivers)).toContain('simulated');
  }, 120_000);
});

/** One ledger on a fixed port and data directory that the spec stops and starts again, as an operator would. */
class RestartableLedger {
  private app?: NestFastifyApplication;
  codec!: TokenCodec;

  constructor(
    readonly dataDir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const config = loadLedgerConfig({ LEDGER_DATA_DIR: this.dataDir, PORT: String(this.port), HOST: '127.0.0.1', LEDGER_LOG_LEVEL: 'error', LEDGER_PROCESSOR_LEASE_MS: '1000' });
    this.codec = loadOrCreateCredentials(dataFiles(config)).codec;
    this.app = await createLedgerApp(config, this.codec, { logDestination: keepLog(`in-process ledger on port ${this.port}`) });
    await this.app.listen({ port: this.port, host: '127.0.0.1' });
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = undefined;
  }

  request: Request = async (method, path, body) => {
    const adminToken = this.codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] });
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { 'x-auth-token': adminToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

describe('the agent while the ledger is down', () => {
  const HOST = 'agent-e2e-offline';
  let ledger: RestartableLedger;
  let stateDir: string;
  let agent: Agent | undefined;

  beforeAll(async () => {
    ledger = new RestartableLedger(mkdtempSync(join(tmpdir(), 'agent-e2e-ledger-')), await freePort());
    stateDir = mkdtempSync(join(tmpdir(), 'agent-e2e-offline-'));
    await ledger.start();
  });
  afterAll(async () => {
    await agent?.stop();
    await ledger.stop();
    rmSync(ledger.dataDir, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('finishes a job it already has, keeps the result until the ledger is back, and the report catches up', async () => {
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const token = ledger.codec.issue({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST });
    const started = simulatedAgent({ ledgerUrl: ledger.url, token, hostname: HOST, stateDir }, { gate });
    agent = started.agent;
    agent.start();
    const fpga = (await reportedDevices(ledger.request, HOST, 2)).find((device) => device.type === 'FPGA')!;
    await heartbeatHeard(ledger.request, HOST);

    const requested = await ledger.request('POST', `/api/v1/hosts/${HOST}/jobs`, {
      kind: 'configure-vfs',
      params: { deviceUuid: fpga.uuid, pciAddress: fpga.pciAddress, numVfs: 6 },
      timeoutSeconds: 300,
    });
    expect(requested.status).toBe(202);
    const { jobId } = requested.body as { jobId: string };
    await waitUntil('the job to be dispatched', async () => ((await ledger.request('GET', `/api/v1/jobs/${jobId}`)).body?.state === 'dispatched' ? true : undefined));

    await ledger.stop();
    openGate();
    const resultFile = join(stateDir, 'results', `${jobId}.json`);
    await waitUntil('the result to be kept in the state directory', async () => (existsSync(resultFile) ? true : undefined));
    expect(JSON.parse(readFileSync(resultFile, 'utf8'))).toMatchObject({ jobId, result: { outcome: 'completed', evidence: { numVfs: 6 } } });
    await waitUntil('the agent to find the ledger gone', async () => (started.logger.lines.some((line) => /results: not delivered/.test(line)) ? true : undefined));

    await ledger.start();
    expect(await finishedJob(ledger.request, jobId)).toMatchObject({ state: 'completed', evidence: { numVfs: 6 } });
    await waitUntil('the result file to go once acknowledged', async () => (readdirSync(join(stateDir, 'results')).length === 0 ? true : undefined));
    await waitUntil('the report to catch up', async () => ((await fpgaDeployable(ledger.request, HOST)).count === 6 ? true : undefined));
  }, 120_000);
});

describe('npm run agent (the compiled agent, run `npm run build` first)', () => {
  it('stops at start-up on an invalid setting, naming it', async () => {
    const agent = startAgentProcess({ AGENT_TOKEN: 't', AGENT_HEARTBEAT_INTERVAL_S: 'soon' });
    expect(await agent.exited()).toBe(2);
    expect(agent.output()).toContain('agent: invalid configuration: AGENT_HEARTBEAT_INTERVAL_S: "soon" is not an integer between 1 and 3600');
  });

  it('reports the simulated host, and stops cleanly on SIGTERM', async () => {
    const HOST = 'agent-e2e-process';
    const ledger = await startTestLedger();
    const stateDir = mkdtempSync(join(tmpdir(), 'agent-e2e-process-'));
    const agent = startAgentProcess({
      LEDGER_URL: ledger.url,
      AGENT_TOKEN: ledger.token({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST }),
      AGENT_HOSTNAME: HOST,
      AGENT_STATE_DIR: stateDir,
      AGENT_DRIVERS: 'simulated',
      AGENT_HEARTBEAT_INTERVAL_S: '1',
    });
    try {
      await agent.waitForOutput(/discovery: 4 device\(s\)/);
      const admin: Request = (method, path) => ledger.request(method, path, { token: ledger.adminToken });
      await reportedDevices(admin, HOST, 4);
      expect(await agent.stop('SIGTERM')).toBe(0);
      expect(agent.output()).toMatch(/SIGTERM: stopping[\s\S]*stopped/);
    } finally {
      await agent.stop('SIGKILL');
      await ledger.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
