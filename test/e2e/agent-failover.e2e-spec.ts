import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { eventStoreOptions, loadLedgerConfig } from '@ledger/config';
import { openEventStore, type RecordedEvent } from '@ledger/eventstore';
import type { ReportedDevice } from '@ledger/inventory';
import { eventually } from '@ledger/processing/testing';
import type { SimulatedDriver } from '../../apps/agent/src/drivers/simulated/simulated.driver';
import type { Agent } from '../../apps/agent/src/runtime/agent';
import { preferredIndex } from '../../apps/agent/src/runtime/ledger-addresses';
import { LedgerClient } from '../../apps/agent/src/runtime/ledger-client';
import type { Heartbeat, HeartbeatAnswer, JobResult, ReportAnswer } from '../../apps/agent/src/runtime/protocol';
import { readWholeLog } from '../bench/fixtures/read-whole-log';
import { ledgerCaller } from '../support/crash-flows';
import { inProcessSimulatedAgent } from '../support/in-process-agent';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';
import { logLines } from '../support/log-lines';
import { withPostgresClient } from '../support/postgres-client';
import { parsePrometheusText, sampleSum } from '../support/prometheus-text';
import { describeWithService, postgresUnavailable, postgresUrl } from '../support/services';

const SECRET = 'agent-failover-signing-key-0123456789ab';
const codec = new TokenCodec(SECRET);
const ADMIN = codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] });
const HOST = 'failover-compute-1';
const AGENT_TOKEN = codec.issue({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST });
/** One FPGA with 2 VFs and one PGPU. */
const SIMULATED_HOST = { fpgas: 1, fpgaVfs: 2, gpus: 1, nics: 0 };
/** The agent heartbeats every second; the ledger calls it lost after this many silent intervals. */
const LOST_AFTER_INTERVALS = 4;
const HEARTBEAT_ROUTE = { method: 'POST', route: '/api/v1/hosts/:hostname/heartbeat' };

// Three ledger processes on a 2-core machine shared with other suites.
jest.setTimeout(120_000);

/** The agent's calls that the ledger acknowledged, in order: what must be in the log afterwards. */
class AcknowledgingClient extends LedgerClient {
  readonly acknowledged: { readonly call: string; readonly position: number | null; readonly jobId?: string }[] = [];
  readonly failovers: { readonly route: string; readonly from: string; readonly to: string }[] = [];

  override async report(devices: readonly ReportedDevice[]): Promise<ReportAnswer> {
    const answer = await super.report(devices);
    this.acknowledged.push({ call: 'report', position: answer.position });
    return answer;
  }

  override async heartbeat(heartbeat: Heartbeat): Promise<HeartbeatAnswer> {
    const answer = await super.heartbeat(heartbeat);
    if (answer.appended > 0) this.acknowledged.push({ call: 'heartbeat', position: answer.position });
    return answer;
  }

  override async postResult(jobId: string, result: JobResult): Promise<void> {
    await super.postResult(jobId, result);
    this.acknowledged.push({ call: 'result', position: null, jobId });
  }
}

/**
 * Issue 15's failover, as the operations guide deploys it: two API replicas
 * (`api,conductor`) and one processors replica on one PostgreSQL, and an
 * agent (in this process, as main.ts builds it, with the simulated driver)
 * whose LEDGER_URL lists both API replicas. The replica the agent uses is
 * SIGKILLed while its long poll is open there; the agent carries on through
 * the survivor without any of its loops seeing a failure: it is never
 * marked lost, a device change and a job requested after the kill reach the
 * ledger, and every call the ledger acknowledged is in the event log.
 */
describeWithService('PostgreSQL', postgresUnavailable())('an agent fails over between API replicas on PostgreSQL', () => {
  const schema = `failover_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let dir: string;
  const replicas = new Map<string, LedgerProcess>();
  let agent: Agent | undefined;
  let driver: SimulatedDriver;
  let client: AcknowledgingClient;
  const agentLines: string[] = [];

  const envOf = (roles: string, instance: string) => ({
    LEDGER_STORE: 'postgres',
    LEDGER_POSTGRES_URL: postgresUrl(),
    LEDGER_POSTGRES_SCHEMA: schema,
    LEDGER_AUTH_SECRET: SECRET,
    LEDGER_DATA_DIR: join(dir, 'ledger'),
    LEDGER_ROLES: roles,
    LEDGER_INSTANCE_ID: instance,
    LEDGER_PROCESSOR_LEASE_MS: '2000',
    LEDGER_AGENT_LOST_AFTER_INTERVALS: String(LOST_AFTER_INTERVALS),
    LEDGER_AGENT_LIVENESS_CHECK_MS: '250',
    LEDGER_TELEMETRY_FLUSH_MS: '200',
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agent-failover-'));
    replicas.set('processors-1', await startLedgerProcess(envOf('processors', 'processors-1')));
    const [api1, api2] = await Promise.all([startLedgerProcess(envOf('api,conductor', 'api-1')), startLedgerProcess(envOf('api,conductor', 'api-2'))]);
    replicas.set('api-1', api1).set('api-2', api2);
  });
  afterAll(async () => {
    await agent?.stop();
    for (const replica of replicas.values()) await replica.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    await withPostgresClient(postgresUrl(), (pg) => pg.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  });

  it('keeps the agent working through the surviving replica when the one it uses is killed, and loses nothing it acknowledged', async () => {
    const apis = [replicas.get('api-1') as LedgerProcess, replicas.get('api-2') as LedgerProcess];
    ({ agent, driver, client } = startAgent(apis.map((api) => api.url), dir, agentLines));
    const viaAny = ledgerCaller(() => apis[0].url);
    await eventually(async () => (await json(viaAny('GET', `/api/v1/hosts/${HOST}`, ADMIN)))?.agentStatus === 'up', 30_000);

    // Before the kill: a job and a health change, each acknowledged by the replica in use.
    const devices = (await json(viaAny('GET', `/api/v1/devices?hostname=${HOST}`, ADMIN))).items as { uuid: string; type: string; pciAddress: string }[];
    const [fpga, gpu] = ['FPGA', 'GPU'].map((type) => devices.find((device) => device.type === type)!);
    const before = await runJob(viaAny, { deviceUuid: fpga.uuid, pciAddress: fpga.pciAddress, numVfs: 4 });
    expect(before).toMatchObject({ state: 'completed', evidence: { numVfs: 4 } });
    driver.setHealth('gpu0', 'degraded', 'ECC errors');
    await eventually(async () => (await json(viaAny('GET', `/api/v1/devices/${gpu.uuid}`, ADMIN)))?.health === 'degraded');

    // The agent took the replica its hostname's hash picks, and sent nothing to the other.
    const heartbeats = await Promise.all(apis.map((api) => heartbeatsAnswered(api)));
    const used = preferredIndex(HOST, apis.length);
    expect(heartbeats[used]).toBeGreaterThan(0);
    expect(heartbeats[1 - used]).toBe(0);
    const [dying, survivor] = [apis[used], apis[1 - used]];
    const viaSurvivor = ledgerCaller(() => survivor.url);
    const acknowledgedBeforeKill = client.acknowledged.length;
    expect(acknowledgedBeforeKill).toBeGreaterThanOrEqual(3);

    await dying.kill('SIGKILL');
    const killedAt = Date.now();

    // A device change on the host and a job requested after the kill both reach the ledger through the survivor.
    driver.setHealth('fpga0', 'degraded', 'PCIe link degraded');
    await eventually(async () => (await json(viaSurvivor('GET', `/api/v1/devices/${fpga.uuid}`, ADMIN)))?.health === 'degraded');
    const after = await runJob(viaSurvivor, { deviceUuid: fpga.uuid, pciAddress: fpga.pciAddress, numVfs: 8 });
    expect(after).toMatchObject({ state: 'completed', evidence: { numVfs: 8, previousNumVfs: 4 } });
    await eventually(async () => (await json(viaSurvivor('GET', `/api/v1/deployables?hostname=${HOST}&resourceClass=FPGA`, ADMIN))).items[0]?.count === 8);

    // Heartbeats kept coming through the survivor for longer than the ledger waits before it calls an agent lost.
    const lostWindowMs = (LOST_AFTER_INTERVALS + 2) * 1000;
    await eventually(() => Date.now() - killedAt > lostWindowMs && heartbeatsAnswered(survivor).then((count) => count > LOST_AFTER_INTERVALS + 2), lostWindowMs + 30_000);
    expect(await json(viaSurvivor('GET', `/api/v1/hosts/${HOST}`, ADMIN))).toMatchObject({ agentStatus: 'up' });

    const log = await readLog(schema);
    expect(log.filter((event) => event.type === 'inventory.AgentLost')).toEqual([]);
    // The poll open on the killed replica was made again on the survivor under a new boot.
    const dispatches = log.filter((event) => event.type === 'jobs.JobDispatched');
    const bootOf = (jobId: string) => (dispatches.find((event) => (event.data as { jobId: string }).jobId === jobId)?.data as { agentBoot: string }).agentBoot;
    expect(bootOf(after.jobId)).not.toBe(bootOf(before.jobId));
    expect(bootOf(after.jobId)).toBe(client.bootId);

    // Every call the ledger acknowledged, before the kill and after, is in the log.
    const positions = new Set(log.map((event) => event.position));
    const finishedJobs = new Set(log.filter((event) => event.type === 'jobs.JobCompleted').map((event) => (event.data as { jobId: string }).jobId));
    const missing = client.acknowledged.filter(({ position, jobId }) => (jobId ? !finishedJobs.has(jobId) : position !== null && !positions.has(position)));
    expect(missing).toEqual([]);
    expect(client.acknowledged.filter(({ call }) => call === 'result').map(({ jobId }) => jobId)).toEqual([before.jobId, after.jobId]);

    // Each call in flight on the killed replica, the long poll among them, went on to the survivor; none came back.
    expect(client.failovers.map(({ from, to }) => [from, to])).toEqual(client.failovers.map(() => [dying.url, survivor.url]));
    expect(client.failovers.map(({ route }) => route)).toContain(`GET /api/v1/hosts/${HOST}/jobs/next`);
    // No loop of the agent saw a failure: each call went to the survivor at once.
    expect(agentLines.filter((line) => /^(WARN|ERROR)/.test(line))).toEqual([]);
    const survivorErrors = logLines(survivor.output()).filter((line) => line.level === 'error' || line.level === 'fatal');
    expect(survivorErrors).toEqual([]);
  });
});

/** The agent in this process, with a client that records what the ledger acknowledged. */
function startAgent(ledgerUrls: string[], dir: string, lines: string[]) {
  const logger = { log: (m: string) => lines.push(m), warn: (m: string) => lines.push(`WARN ${m}`), error: (m: string) => lines.push(`ERROR ${m}`) };
  const client = new AcknowledgingClient({ baseUrls: ledgerUrls, token: AGENT_TOKEN, hostname: HOST, onFailover: (failover) => client.failovers.push(failover) });
  const { agent, driver } = inProcessSimulatedAgent({
    ledgerUrls,
    token: AGENT_TOKEN,
    hostname: HOST,
    stateDir: join(dir, 'agent'),
    simulated: SIMULATED_HOST,
    logger,
    dependencies: { client },
  });
  agent.start();
  return { agent, driver, client };
}

const json = async (answer: Promise<Response>): Promise<any> => {
  const response = await answer;
  return response.status === 200 ? response.json() : undefined;
};

/** Requests a configure-vfs job on the host and waits for it to finish. */
async function runJob(call: ReturnType<typeof ledgerCaller>, params: Record<string, unknown>): Promise<{ jobId: string; state: string; evidence: Record<string, unknown> }> {
  const requested = await call('POST', `/api/v1/hosts/${HOST}/jobs`, ADMIN, { kind: 'configure-vfs', params, timeoutSeconds: 60 });
  expect(requested.status).toBe(202);
  const { jobId } = (await requested.json()) as { jobId: string };
  let job: { jobId: string; state: string; evidence: Record<string, unknown> } | undefined;
  await eventually(async () => {
    job = await json(call('GET', `/api/v1/jobs/${jobId}`, ADMIN));
    return job !== undefined && ['completed', 'failed'].includes(job.state);
  }, 30_000);
  return job!;
}

/** The heartbeats a replica has answered 200, from its /metrics. */
async function heartbeatsAnswered(replica: LedgerProcess): Promise<number> {
  const response = await fetch(`${replica.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } });
  return sampleSum(parsePrometheusText(await response.text()), 'ledger_http_requests_total', { ...HEARTBEAT_ROUTE, status: '200' });
}

/** The whole event log of the suite's schema. */
async function readLog(schema: string): Promise<RecordedEvent[]> {
  const store = await openEventStore(eventStoreOptions(loadLedgerConfig({ LEDGER_STORE: 'postgres', LEDGER_POSTGRES_URL: postgresUrl(), LEDGER_POSTGRES_SCHEMA: schema })));
  try {
    return await readWholeLog(store);
  } finally {
    await store.close();
  }
}
