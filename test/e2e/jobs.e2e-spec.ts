import { randomUUID } from 'node:crypto';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { HOST_LIVENESS_COMMANDS } from '@ledger/inventory';
import type { HostLivenessCommands } from '@ledger/inventory/nest';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { eventually } from '@ledger/processing/testing';
import { JobArrivals } from '../../apps/ledger/src/jobs/job-arrivals';
import { hostname, hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const vfsParams = (numVfs = 4) => ({ deviceUuid: DEVICE, pciAddress: '0000:5e:00.0', numVfs });
const recap = { ok: 9, changed: 4, failed: 0, unreachable: 0, skipped: 2 };

describe('jobs over HTTP (embedded SQLite)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let manager: string;
  let hostCount = 0;

  beforeAll(async () => {
    ledger = await startTestLedger();
    store = ledger.app.get<EventStore>(EVENT_STORE);
    manager = ledger.token({ user: 'ops', project: 'ops', roles: ['manager'] });
  });
  afterAll(() => ledger.close());

  /** The agent's first heartbeat, as the agent sends it right after its first report: from then on the ledger takes jobs for the host. */
  const heartbeat = (host: string, agent: string) =>
    ledger.request('POST', `/api/v1/hosts/${host}/heartbeat`, { token: agent, body: { agentVersion: '0.1.0', intervalSeconds: 3600, devices: [] } });

  /**
   * A host that has reported, with its agent's token: each test gets its
   * own, so no job of another test waits for it. Its agent has sent a
   * heartbeat unless `reportOnly` (a host reported by hand, no agent).
   */
  async function newHost({ reportOnly = false } = {}): Promise<{ host: string; agent: string }> {
    const host = hostname(++hostCount);
    const agent = ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
    expect((await ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agent, body: hostReportBody(hostCount) })).status).toBe(200);
    if (!reportOnly) expect((await heartbeat(host, agent)).status).toBe(200);
    return { host, agent };
  }

  const requestJob = (host: string, body: unknown, token = ledger.adminToken) => ledger.request('POST', `/api/v1/hosts/${host}/jobs`, { token, body });
  const poll = (host: string, token: string, options: { waitSeconds?: number; boot?: string } = {}) =>
    ledger.request('GET', `/api/v1/hosts/${host}/jobs/next${options.waitSeconds === undefined ? '' : `?waitSeconds=${options.waitSeconds}`}`, {
      token,
      headers: options.boot ? { 'x-agent-boot': options.boot } : {},
    });
  const sendResult = (jobId: string, body: unknown, token: string) => ledger.request('POST', `/api/v1/jobs/${jobId}/result`, { token, body });
  const getJob = (jobId: string, position?: number | null) =>
    ledger.request('GET', `/api/v1/jobs/${jobId}`, { token: ledger.adminToken, headers: position ? { 'x-ledger-min-position': String(position) } : {} });
  /** The host-stream fact of a finished driver job, once the inventory's job-facts reactor has recorded it. */
  const driverFactOf = async (host: string, jobId: string) => {
    const factOf = async () => (await store.readStream(`host-${host}`)).find((event) => (event.data as { jobId?: string }).jobId === jobId);
    await eventually(async () => (await factOf()) !== undefined);
    return (await factOf())!;
  };

  /** A 4xx with its stable code, in the header and the problem document, and nothing appended. */
  async function expectRefused(send: () => Promise<TestResponse>, status: number, code: string, facts: Record<string, unknown> = {}): Promise<void> {
    const before = await store.headPosition();
    const response = await send();
    expect({ status: response.status, header: response.headers.get('x-error-code'), code: response.body?.code }).toEqual({ status, header: code, code });
    expect(response.body).toMatchObject(facts);
    expect(await store.headPosition()).toBe(before);
  }

  it('requests a job, hands it to the long poll as JobDispatched, and records the completed result with its evidence', async () => {
    const { host, agent } = await newHost();
    const requested = await requestJob(host, { kind: 'configure-vfs', params: vfsParams() });
    expect(requested.status).toBe(202);
    expect(requested.body).toEqual({ jobId: expect.stringMatching(/^[0-9a-f-]{36}$/), position: expect.any(Number) });
    const { jobId } = requested.body;
    expect(requested.headers.get('location')).toBe(`/api/v1/jobs/${jobId}`);

    const boot = randomUUID();
    const polled = await poll(host, agent, { boot, waitSeconds: 5 });
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual({
      jobs: [{ jobId, kind: 'configure-vfs', params: vfsParams(), timeoutSeconds: 120, requestedAt: expect.any(String), attempt: 1 }],
    });
    const [request, dispatched] = await store.readStream(`job-${jobId}`);
    expect(request).toMatchObject({ type: 'jobs.JobRequested', data: { jobId, hostname: host, kind: 'configure-vfs' }, metadata: { actor: { user: 'admin' } } });
    expect(dispatched).toMatchObject({
      type: 'jobs.JobDispatched',
      data: { jobId, hostname: host, attempt: 1, agentBoot: boot, dispatchedAt: expect.any(String) },
      metadata: { actor: { user: `agent:${host}`, roles: ['agent'] } },
    });

    const result = await sendResult(jobId, { outcome: 'completed', evidence: { numVfs: 4 } }, agent);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ jobId, state: 'completed', position: expect.any(Number) });
    const shown = await getJob(jobId, result.body.position);
    expect(shown.body).toMatchObject({ jobId, hostname: host, state: 'completed', attempt: 1, evidence: { numVfs: 4 }, code: null, finishedAt: expect.any(String) });
    const listed = await ledger.request('GET', `/api/v1/jobs?hostname=${host}&state=completed&kind=configure-vfs`, { token: manager });
    expect(listed.body).toEqual({ items: [shown.body], nextCursor: null });
  });

  it("carries the request's correlation id through the agent's poll and result, each caused by the agent's own request", async () => {
    const { host, agent } = await newHost();
    const correlationId = randomUUID();
    const requested = await ledger.request('POST', `/api/v1/hosts/${host}/jobs`, {
      token: ledger.adminToken,
      body: { kind: 'configure-vfs', params: vfsParams() },
      headers: { 'x-correlation-id': correlationId },
    });
    const { jobId } = requested.body;
    expect((await poll(host, agent, { boot: randomUUID(), waitSeconds: 5 })).body.jobs).toHaveLength(1);
    expect((await sendResult(jobId, { outcome: 'completed', evidence: { numVfs: 4 } }, agent)).status).toBe(200);
    const events = await store.readStream(`job-${jobId}`);
    expect(events.map((event) => [event.type, event.metadata.correlationId])).toEqual([
      ['jobs.JobRequested', correlationId],
      ['jobs.JobDispatched', correlationId],
      ['jobs.JobCompleted', correlationId],
    ]);
    const causes = events.map((event) => event.metadata.causationId);
    expect(new Set(causes).size).toBe(3);
    expect(causes).not.toContain(correlationId);
  });

  it('records a failure with its code, reason and evidence', async () => {
    const { host, agent } = await newHost();
    const { jobId } = (await requestJob(host, { kind: 'discover', params: {}, timeoutSeconds: 30 })).body;
    expect((await poll(host, agent, { boot: randomUUID(), waitSeconds: 5 })).body.jobs).toHaveLength(1);
    const evidence = { devices: 0, skipped: ['/sys/bus/pci/devices/0000:3b:00.0: unreadable'] };
    const result = await sendResult(jobId, { outcome: 'failed', code: 'DISCOVERY.SYSFS_UNREADABLE', reason: 'sysfs root is empty', evidence }, agent);
    expect(result.body).toMatchObject({ state: 'failed' });
    expect((await getJob(jobId, result.body.position)).body).toMatchObject({
      state: 'failed',
      code: 'DISCOVERY.SYSFS_UNREADABLE',
      reason: 'sysfs root is empty',
      evidence,
      timeoutSeconds: 30,
    });
    await expectRefused(() => sendResult(jobId, { outcome: 'completed', evidence: {} }, agent), 409, 'JOB.ALREADY_FINISHED', { state: 'failed' });
  });

  it('answers a long poll with nothing waiting with no jobs once waitSeconds have passed', async () => {
    const { host, agent } = await newHost();
    const started = Date.now();
    const polled = await poll(host, agent, { waitSeconds: 1 });
    const elapsed = Date.now() - started;
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual({ jobs: [] });
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(5000);
  });

  it('wakes a waiting long poll at once when a job is requested for its host', async () => {
    const { host, agent } = await newHost();
    const other = await newHost();
    const arrivals = ledger.app.get(JobArrivals);
    const polling = poll(host, agent, { waitSeconds: 30, boot: randomUUID() });
    await eventually(() => arrivals.waitingPolls(host) > 0);
    await requestJob(other.host, { kind: 'discover', params: {} });
    const requestedAt = Date.now();
    const { jobId } = (await requestJob(host, { kind: 'discover', params: {} })).body;
    const polled = await polling;
    expect(Date.now() - requestedAt).toBeLessThan(3000);
    expect(polled.body.jobs.map((job: { jobId: string }) => job.jobId)).toEqual([jobId]);
    expect(arrivals.waitingPolls(host)).toBe(0);
  });

  it("records a job requested while its agent's poll waits as dispatched to that poll, in the request's own append", async () => {
    const { host, agent } = await newHost();
    const boot = randomUUID();
    const arrivals = ledger.app.get(JobArrivals);
    const polling = poll(host, agent, { waitSeconds: 30, boot });
    await eventually(() => arrivals.waitingPolls(host) > 0);
    const requested = (await requestJob(host, { kind: 'discover', params: {} })).body;
    expect((await polling).body.jobs).toMatchObject([{ jobId: requested.jobId, attempt: 1 }]);
    const events = await store.readStream(`job-${requested.jobId}`);
    expect(events.map((event) => [event.type, event.position, (event.data as { agentBoot?: string }).agentBoot])).toEqual([
      ['jobs.JobRequested', requested.position - 1, undefined],
      ['jobs.JobDispatched', requested.position, boot],
    ]);
  });

  it('hands the oldest waiting jobs out in order, and a dispatched job again only to a restarted agent (another boot)', async () => {
    const { host, agent } = await newHost();
    const first = (await requestJob(host, { kind: 'configure-vfs', params: vfsParams(2) })).body.jobId;
    const second = (await requestJob(host, { kind: 'discover', params: {} })).body.jobId;
    const heartbeat = () =>
      ledger.request('POST', `/api/v1/hosts/${host}/heartbeat`, { token: agent, body: { agentVersion: '0.1.0', intervalSeconds: 15, devices: [] } });
    await eventually(async () => (await heartbeat()).body.jobsWaiting === 2);
    const bootA = randomUUID();
    const ids = (response: TestResponse) => response.body.jobs.map((job: { jobId: string; attempt: number }) => [job.jobId, job.attempt]);
    expect(ids(await poll(host, agent, { boot: bootA, waitSeconds: 0 }))).toEqual([
      [first, 1],
      [second, 1],
    ]);
    await sendResult(second, { outcome: 'completed', evidence: { devices: 9 } }, agent);
    await eventually(async () => (await heartbeat()).body.jobsWaiting === 0);

    const position = await store.headPosition();
    expect(ids(await poll(host, agent, { boot: bootA, waitSeconds: 0 }))).toEqual([]);
    expect(ids(await poll(host, ledger.adminToken, { waitSeconds: 0 }))).toEqual([]);
    expect(await store.headPosition()).toBe(position);

    const bootB = randomUUID();
    expect(ids(await poll(host, agent, { boot: bootB, waitSeconds: 0 }))).toEqual([[first, 2]]);
    expect((await store.readStream(`job-${first}`)).map((event) => [event.type, (event.data as { attempt?: number }).attempt])).toEqual([
      ['jobs.JobRequested', undefined],
      ['jobs.JobDispatched', 1],
      ['jobs.JobDispatched', 2],
    ]);
    expect(ids(await poll(host, agent, { boot: bootB, waitSeconds: 0 }))).toEqual([]);
  });

  it('fails a job with no result within its timeout with JOB.TIMED_OUT, and refuses the late result with 409', async () => {
    const { host, agent } = await newHost();
    const { jobId } = (await requestJob(host, { kind: 'configure-vfs', params: vfsParams(), timeoutSeconds: 1 })).body;
    expect((await poll(host, agent, { boot: randomUUID(), waitSeconds: 5 })).body.jobs).toHaveLength(1);
    await eventually(async () => (await getJob(jobId)).body.state === 'failed');
    expect((await getJob(jobId)).body).toMatchObject({
      state: 'failed',
      code: 'JOB.TIMED_OUT',
      reason: 'no result within 1 s: dispatched (attempt 1), no result',
      evidence: { lastState: 'dispatched', attempt: 1 },
    });
    const [timedOut] = (await store.readStream(`job-${jobId}`)).slice(-1);
    expect(timedOut.metadata.actor).toEqual(SYSTEM_ACTOR);
    await expectRefused(() => sendResult(jobId, { outcome: 'completed', evidence: { numVfs: 4 } }, agent), 409, 'JOB.ALREADY_FINISHED', {
      state: 'failed',
      failureCode: 'JOB.TIMED_OUT',
    });
    expect((await poll(host, agent, { boot: randomUUID(), waitSeconds: 0 })).body).toEqual({ jobs: [] });
  });

  it("refuses another host's agent on the poll and on a result with 403", async () => {
    const { host, agent } = await newHost();
    const stranger = await newHost();
    const { jobId } = (await requestJob(host, { kind: 'discover', params: {} })).body;
    await expectRefused(() => poll(host, stranger.agent, { waitSeconds: 0 }), 403, 'AUTH.WRONG_HOST');
    await expectRefused(() => sendResult(jobId, { outcome: 'completed', evidence: {} }, stranger.agent), 403, 'AUTH.WRONG_HOST', {
      credentialHost: stranger.host,
      requestedHost: host,
    });
    expect((await sendResult(jobId, { outcome: 'completed', evidence: {} }, agent)).status).toBe(200);
  });

  it("records driver jobs as facts on the host stream and lists the host's drivers", async () => {
    const { host, agent } = await newHost();
    const boot = randomUUID();
    const install = (await requestJob(host, { kind: 'install-driver', params: { driver: 'nvidia-gpu' } })).body.jobId;
    expect((await poll(host, agent, { boot, waitSeconds: 5 })).body.jobs[0]).toMatchObject({ jobId: install, timeoutSeconds: 1800, params: { driver: 'nvidia-gpu' } });
    const installed = await sendResult(install, { outcome: 'completed', evidence: { recap, playbook: 'nvidia-gpu/install.yml', version: '550.54.15' } }, agent);
    const fact = await driverFactOf(host, install);
    expect(fact).toMatchObject({ type: 'inventory.DriverInstalled', data: { hostname: host, driver: 'nvidia-gpu', version: '550.54.15', recap, jobId: install } });
    // Recorded by the inventory after the job's result, correlated with the job's request and caused by its result.
    const [completed] = (await store.readStream(`job-${install}`)).slice(-1);
    expect(completed.position).toBe(installed.body.position);
    expect(fact.position).toBeGreaterThan(installed.body.position);
    expect(fact.metadata).toMatchObject({ causationId: completed.id, correlationId: completed.metadata.correlationId });

    const drivers = await ledger.request('GET', `/api/v1/hosts/${host}/drivers`, { token: manager, headers: { 'x-ledger-min-position': String(fact.position) } });
    expect(drivers.body).toEqual({
      hostname: host,
      pending: [],
      drivers: [
        {
          driver: 'nvidia-gpu',
          status: 'installed',
          version: '550.54.15',
          installedAt: expect.any(String),
          recap,
          lastJobId: install,
          lastFailure: null,
          updatedAt: expect.any(String),
        },
      ],
    });

    const update = (await requestJob(host, { kind: 'update-driver', params: { driver: 'nvidia-gpu', version: '560.35.03' } })).body.jobId;
    await poll(host, agent, { boot, waitSeconds: 5 });
    await sendResult(update, { outcome: 'failed', code: 'DRIVER.PLAYBOOK_FAILED', reason: 'dkms build failed', evidence: { recap: { ...recap, failed: 1 } } }, agent);
    const failed = await driverFactOf(host, update);
    expect(failed).toMatchObject({
      type: 'inventory.DriverFailed',
      data: { driver: 'nvidia-gpu', operation: 'update', reason: 'DRIVER.PLAYBOOK_FAILED: dkms build failed', recap: { ...recap, failed: 1 }, jobId: update },
    });
    const afterFailure = await ledger.request('GET', `/api/v1/hosts/${host}/drivers`, { token: manager, headers: { 'x-ledger-min-position': String(failed.position) } });
    expect(afterFailure.body.drivers).toEqual([
      expect.objectContaining({ status: 'installed', version: '550.54.15', lastFailure: { operation: 'update', reason: 'DRIVER.PLAYBOOK_FAILED: dkms build failed', failedAt: expect.any(String) } }),
    ]);

    const uninstall = (await requestJob(host, { kind: 'uninstall-driver', params: { driver: 'nvidia-gpu' } })).body.jobId;
    expect((await sendResult(uninstall, { outcome: 'completed', evidence: { recap } }, ledger.adminToken)).status).toBe(200);
    const removed = await driverFactOf(host, uninstall);
    expect(removed.type).toBe('inventory.DriverUninstalled');
    expect((await ledger.request('GET', `/api/v1/hosts/${host}/drivers`, { token: manager, headers: { 'x-ledger-min-position': String(removed.position) } })).body.drivers).toEqual([]);
    await expectRefused(() => ledger.request('GET', '/api/v1/hosts/never-reported/drivers', { token: manager }), 404, 'INVENTORY.HOST_NOT_FOUND');
  });

  it('refuses at once a job no agent would take: the host was only ever reported, or its agent is lost', async () => {
    const { host, agent } = await newHost({ reportOnly: true });
    await expectRefused(() => requestJob(host, { kind: 'discover', params: {} }), 409, 'JOB.AGENT_UNAVAILABLE', {
      hostname: host,
      agentStatus: 'never-seen',
      detail: expect.stringMatching(new RegExp(`^no agent has run on ${host}: the ledger has its reports but never a heartbeat`)),
    });
    // Bad input is refused as such first.
    await expectRefused(() => requestJob(host, { kind: 'reboot', params: {} }), 400, 'JOB.INVALID', { path: 'kind' });

    expect((await heartbeat(host, agent)).status).toBe(200);
    expect((await requestJob(host, { kind: 'discover', params: {}, timeoutSeconds: 3600 })).status).toBe(202);

    const lost = await ledger.app.get<symbol, HostLivenessCommands>(HOST_LIVENESS_COMMANDS).run(
      { type: 'MarkAgentLost', hostname: host, lastSeenAt: new Date().toISOString(), detectedAt: new Date().toISOString() },
      { actor: SYSTEM_ACTOR, correlationId: randomUUID() },
    );
    expect(lost.appended).toBe(1);
    await eventually(async () => (await ledger.request('GET', `/api/v1/hosts/${host}`, { token: manager })).body.agentStatus === 'lost');
    await expectRefused(() => requestJob(host, { kind: 'discover', params: {} }), 409, 'JOB.AGENT_UNAVAILABLE', {
      agentStatus: 'lost',
      detail: expect.stringMatching(new RegExp(`^the agent of ${host} is lost \\(last seen .+\\): a job would wait for it and time out`)),
    });
    await expectRefused(() => requestJob('never-reported', { kind: 'discover', params: {} }), 404, 'INVENTORY.HOST_NOT_FOUND');
  });

  it('lists the driver jobs still pending beside the drivers, so "nothing installed" and "not done yet" differ', async () => {
    const { host, agent } = await newHost();
    const requested = await requestJob(host, { kind: 'install-driver', params: { driver: 'intel-qat', version: '1.2' } });
    const install = requested.body.jobId;
    await requestJob(host, { kind: 'discover', params: {} });
    const driversAt = async (position: number) =>
      (await ledger.request('GET', `/api/v1/hosts/${host}/drivers`, { token: manager, headers: { 'x-ledger-min-position': String(position) } })).body;

    expect(await driversAt(requested.body.position)).toEqual({
      hostname: host,
      drivers: [],
      pending: [{ jobId: install, kind: 'install-driver', driver: 'intel-qat', version: '1.2', state: 'requested', requestedAt: expect.any(String) }],
    });
    await poll(host, agent, { boot: randomUUID(), waitSeconds: 5 });
    await eventually(async () => (await driversAt(requested.body.position)).pending[0]?.state === 'dispatched');
    await sendResult(install, { outcome: 'completed', evidence: { recap, version: '1.2' } }, agent);
    expect(await driversAt((await driverFactOf(host, install)).position)).toMatchObject({ drivers: [{ driver: 'intel-qat', status: 'installed', version: '1.2' }], pending: [] });
  });

  it('records the driver fact of a result the ledger appended just before a crash, once, from the job alone', async () => {
    const { host, agent } = await newHost();
    // The ledger stopped right after appending the job's outcome: nothing but the job's stream says it finished.
    const crashAfterOutcome = async (driver: string) => {
      const { jobId } = (await requestJob(host, { kind: 'install-driver', params: { driver, version: '1.2' } })).body;
      const version = (await store.readStream(`job-${jobId}`)).length;
      await store.append(
        `job-${jobId}`,
        [{ type: 'jobs.JobCompleted', data: { jobId, evidence: { recap }, completedAt: new Date().toISOString() }, metadata: { correlationId: 'crash', causationId: null, actor: SYSTEM_ACTOR, schemaVersion: 1 } }],
        { expected: version },
      );
      return jobId;
    };
    const first = await crashAfterOutcome('intel-qat');
    const second = await crashAfterOutcome('sriov-nic');

    expect(await driverFactOf(host, first)).toMatchObject({ type: 'inventory.DriverInstalled', data: { driver: 'intel-qat', version: '1.2', jobId: first } });
    const last = await driverFactOf(host, second);
    expect(last).toMatchObject({ type: 'inventory.DriverInstalled', data: { driver: 'sriov-nic', jobId: second } });
    // The agent retries its result until acknowledged: refused, and no second fact.
    expect((await sendResult(first, { outcome: 'completed', evidence: { recap } }, agent)).status).toBe(409);
    const drivers = await ledger.request('GET', `/api/v1/hosts/${host}/drivers`, { token: manager, headers: { 'x-ledger-min-position': String(await store.headPosition()) } });
    expect(drivers.body.drivers.map((driver: { driver: string }) => driver.driver)).toEqual(['intel-qat', 'sriov-nic']);
    const facts = (await store.readStream(`host-${host}`)).filter((event) => event.type.startsWith('inventory.Driver'));
    expect(facts.map((event) => (event.data as { jobId: string }).jobId)).toEqual([first, second]);
  });

  it('refuses bad input with 400 and a stable code, appending nothing', async () => {
    const { host, agent } = await newHost();
    const bad = (body: unknown, path: string) => expectRefused(() => requestJob(host, body), 400, 'JOB.INVALID', { path });
    await bad({ kind: 'reboot', params: {} }, 'kind');
    await bad({ params: {} }, 'kind');
    await bad({ kind: 'configure-vfs', params: vfsParams(257) }, 'params.numVfs');
    await bad({ kind: 'configure-vfs', params: { ...vfsParams(), pciAddress: '5e:00.0' } }, 'params.pciAddress');
    await bad({ kind: 'configure-vfs', params: { ...vfsParams(), deviceUuid: 'gpu-0' } }, 'params.deviceUuid');
    await bad({ kind: 'create-mdev', params: { deviceUuid: DEVICE, pciAddress: '0000:3b:00.0', mdevType: 'nvidia 35', mdevUuid: DEVICE } }, 'params.mdevType');
    await bad({ kind: 'program', params: { deviceUuid: DEVICE, deployableUuid: DEVICE, pciAddress: '0000:5e:00.0', image: { url: 'ftp://x/y', sha256: 'a'.repeat(64) } } }, 'params.image.url');
    await bad({ kind: 'program', params: { deviceUuid: DEVICE, deployableUuid: DEVICE, pciAddress: '0000:5e:00.0', image: { url: 'https://x/y', sha256: 'abc' } } }, 'params.image.sha256');
    await bad({ kind: 'install-driver', params: { driver: 'NVIDIA' } }, 'params.driver');
    await bad({ kind: 'install-driver', params: { driver: 'nvidia-gpu', version: 'v'.repeat(65) } }, 'params.version');
    await bad({ kind: 'discover', params: { deep: true } }, 'params.deep');
    await bad({ kind: 'discover', params: [] }, 'params');
    await bad({ kind: 'discover', params: {}, timeoutSeconds: 0 }, 'timeoutSeconds');
    await bad({ kind: 'discover', params: {}, timeoutSeconds: 86_401 }, 'timeoutSeconds');
    await expectRefused(() => requestJob(host, { kind: 'discover', params: {}, priority: 1 }), 400, 'REQUEST.INVALID');
    await expectRefused(() => requestJob('never-reported', { kind: 'discover', params: {} }), 404, 'INVENTORY.HOST_NOT_FOUND');

    const { jobId } = (await requestJob(host, { kind: 'discover', params: {} })).body;
    await expectRefused(() => sendResult(jobId, { outcome: 'done', evidence: {} }, agent), 400, 'REQUEST.INVALID');
    await expectRefused(() => sendResult(jobId, { outcome: 'completed' }, agent), 400, 'REQUEST.INVALID');
    await expectRefused(() => sendResult(jobId, { outcome: 'completed', evidence: { log: 'x'.repeat(70_000) } }, agent), 400, 'JOB.INVALID', {
      path: 'evidence',
      limit: 65_536,
    });
    await expectRefused(() => sendResult(jobId, { outcome: 'failed', code: 'oops', evidence: {} }, agent), 400, 'JOB.INVALID', { path: 'code' });
    await expectRefused(() => sendResult(randomUUID(), { outcome: 'completed', evidence: {} }, agent), 404, 'JOB.NOT_FOUND');
    await expectRefused(() => sendResult('job-1', { outcome: 'completed', evidence: {} }, agent), 400, 'REQUEST.INVALID');
    await expectRefused(() => poll(host, agent, { waitSeconds: 61 }), 400, 'REQUEST.INVALID');
    await expectRefused(() => poll(host, agent, { waitSeconds: 0, boot: 'agent-1' }), 400, 'REQUEST.INVALID');
    await expectRefused(() => ledger.request('GET', '/api/v1/jobs?state=lost', { token: manager }), 400, 'REQUEST.INVALID');
    await expectRefused(() => ledger.request('GET', '/api/v1/jobs?cursor=bm9wZQ', { token: manager }), 400, 'JOB.INVALID', { path: 'cursor' });
    await expectRefused(() => getJob(randomUUID()), 404, 'JOB.NOT_FOUND');
  });

  it('lets admins request jobs, managers read them, and agents only poll and report', async () => {
    const { host, agent } = await newHost();
    await expectRefused(() => requestJob(host, { kind: 'discover', params: {} }, manager), 403, 'AUTH.ROLE_REQUIRED');
    await expectRefused(() => requestJob(host, { kind: 'discover', params: {} }, agent), 403, 'AUTH.ROLE_REQUIRED');
    const { jobId, position } = (await requestJob(host, { kind: 'discover', params: {} })).body;
    expect((await ledger.request('GET', `/api/v1/jobs/${jobId}`, { token: manager, headers: { 'x-ledger-min-position': String(position) } })).status).toBe(200);
    await expectRefused(() => ledger.request('GET', `/api/v1/jobs/${jobId}`, { token: agent }), 403, 'AUTH.ROLE_REQUIRED');
    await expectRefused(() => ledger.request('GET', '/api/v1/jobs', { token: agent }), 403, 'AUTH.ROLE_REQUIRED');
    await expectRefused(() => poll(host, manager, { waitSeconds: 0 }), 403, 'AUTH.ROLE_REQUIRED');
    await expectRefused(() => sendResult(jobId, { outcome: 'completed', evidence: {} }, manager), 403, 'AUTH.ROLE_REQUIRED');
    await expectRefused(() => ledger.request('GET', `/api/v1/hosts/${host}/drivers`, { token: agent }), 403, 'AUTH.ROLE_REQUIRED');
  });
});
