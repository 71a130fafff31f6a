import { AggregateCache, type CommandContext, deciderCommandHandler, handleCommand, StreamLocks } from '@ledger/eventstore';
import { type JobCommand, jobDecider, jobStream, RecordJobResultCommand } from '@ledger/jobs';
import { RecordJobResultHandler } from '@ledger/jobs/nest';
import { openSqliteSqlDatabase, ReactorRuntime, type SqlDatabase } from '@ledger/processing';
import { capturingLogger, eventually, InMemoryEventStore } from '@ledger/processing/testing';
import { deviceCommands } from '../application/device-commands';
import { hostDriversCommands } from '../application/host-drivers-commands';
import { deviceStream, hostStream } from '../domain/streams';
import { deviceFactsOfJobResults } from './device-facts-of-results';
import { jobFactsReactor } from './job-facts.reactor';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const DEPLOYABLE = 'b0a7f0c4-6a3e-5c55-9d0e-1e5a0c1f2a3b';
const BITSTREAM = '0196b3c2-0000-7000-8000-0000000000b5';
const job = (n: number) => `0196b3c2-0000-7000-8000-${String(n).padStart(12, '0')}`;
const FUNCTION = '9f'.repeat(16);
const OLD_FUNCTION = '1e'.repeat(16);
const SHA = 'ab'.repeat(32);
const AT = '2026-03-01T10:00:00.000Z';
const DONE = '2026-03-01T10:01:00.000Z';
const ops: CommandContext = { actor: { user: 'ops', project: 'p-ops', roles: ['admin'] }, correlationId: 'req-ops-1' };
const byWorkflow: CommandContext = { actor: { user: 'workflow:provision', project: null, roles: ['system'] }, correlationId: 'workflow-provision-compute-1' };
const image = { url: 'https://images.example/nlb.gbs', sha256: SHA };

describe('the job-facts reactor (SQLite checkpoints)', () => {
  let store: InMemoryEventStore;
  let db: SqlDatabase;
  let reactors: ReactorRuntime;

  const startReactor = async (database: SqlDatabase) => {
    reactors = new ReactorRuntime({
      store,
      db: database,
      owner: 'test',
      logger: capturingLogger(),
      maxAttempts: 2,
      rejectedBackoff: { initialMs: 1, maxMs: 5 },
      reactors: [
        jobFactsReactor({
          store,
          recordDeviceFact: (command, context) => deviceCommands(store).run(command, context),
          recordDriverOutcome: (command, context) => hostDriversCommands(store).run(command, context),
        }),
      ],
    });
    await reactors.start();
    await eventually(async () => (await reactors.status())[0].state === 'live');
  };
  const run = (context: CommandContext, ...commands: JobCommand[]) =>
    commands.reduce(async (previous, command) => {
      await previous;
      await handleCommand(store, jobStream(command.jobId), jobDecider, command, context);
    }, Promise.resolve());
  const request = (n: number, kind: string, params: Record<string, unknown>): JobCommand => ({
    type: 'RequestJob', jobId: job(n), hostname: 'compute-1', kind, params: { deviceUuid: DEVICE, pciAddress: '0000:3b:00.0', ...params }, requestedAt: AT,
  });
  const requestDriverJob = (n: number, kind: string, params: Record<string, unknown>): JobCommand => ({
    type: 'RequestJob', jobId: job(n), hostname: 'compute-1', kind, params, requestedAt: AT,
  });
  const complete = (n: number, evidence: Record<string, unknown>): JobCommand => ({ type: 'CompleteJob', jobId: job(n), evidence, completedAt: DONE });
  const fail = (n: number, code: string, evidence: Record<string, unknown>): JobCommand => ({
    type: 'FailJob', jobId: job(n), code, reason: 'it went wrong', evidence, failedAt: DONE,
  });
  const deviceFacts = async () => store.readStream(deviceStream(DEVICE));
  const driverFacts = async () => store.readStream(hostStream('compute-1'));
  const caughtUp = async () => reactors.waitForPosition(await store.headPosition());

  beforeEach(async () => {
    store = new InMemoryEventStore();
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    await startReactor(db);
  });

  afterEach(async () => {
    await reactors.stop();
    await db.close();
    await store.close();
  });

  it("records a programmed region, as its requester asked it, correlated with the job and caused by its result", async () => {
    await run(ops, request(1, 'program', { deployableUuid: DEPLOYABLE, image, bitstreamId: BITSTREAM }));
    await run(ops, complete(1, { functionId: FUNCTION, sha256: SHA, previousFunctionId: OLD_FUNCTION }));
    await caughtUp();
    const [fact] = await deviceFacts();
    const [completed] = (await store.readStream(jobStream(job(1)))).slice(-1);
    expect(fact).toMatchObject({
      type: 'inventory.RegionProgrammed',
      data: {
        deviceUuid: DEVICE, hostname: 'compute-1', jobId: job(1), requestedBy: { user: 'ops', project: 'p-ops', workflow: null },
        deployableUuid: DEPLOYABLE, region: null, bitstreamId: BITSTREAM, sha256: SHA, functionId: FUNCTION, previousFunctionId: OLD_FUNCTION, programmedAt: DONE,
      },
      metadata: { actor: ops.actor, correlationId: 'req-ops-1', causationId: completed.id },
    });
  });

  it("finds a fact recorded in its result's own append (deviceFactsOfJobResults) and appends nothing", async () => {
    await run(ops, request(1, 'program', { deployableUuid: DEPLOYABLE, image, bitstreamId: BITSTREAM }));
    const jobs = deciderCommandHandler(store, { decider: jobDecider, streamOf: (command: JobCommand) => jobStream(command.jobId), locks: new StreamLocks() });
    const results = new RecordJobResultHandler(jobs, store, new StreamLocks(), deviceFactsOfJobResults(new AggregateCache()));
    await results.execute(new RecordJobResultCommand({ jobId: job(1), outcome: 'completed', evidence: { functionId: FUNCTION, sha256: SHA } }, ops));
    const [completed] = (await store.readStream(jobStream(job(1)))).slice(-1);
    expect(await deviceFacts()).toMatchObject([{ type: 'inventory.RegionProgrammed', position: completed.position + 1, metadata: { actor: ops.actor, correlationId: 'req-ops-1' } }]);
    await caughtUp();
    expect(await deviceFacts()).toHaveLength(1);
  });

  it('records a failed program with what the agent read back, a shell load and configured VFs; other jobs make no fact', async () => {
    await run(ops, request(1, 'program', { deployableUuid: DEPLOYABLE, region: 'region1', image }));
    await run(ops, fail(1, 'DRIVER.INJECTED_FAILURE', { functionId: OLD_FUNCTION, deviceState: `previous function ${OLD_FUNCTION} restored` }));
    await run(byWorkflow, request(2, 'program', { target: 'shell', image }), complete(2, { interfaceId: 'c7'.repeat(16), sha256: SHA, previousInterfaceId: null }));
    await run(ops, request(3, 'configure-vfs', { numVfs: 8 }), complete(3, { numVfs: 8, previousNumVfs: 4, changed: true }));
    await run(ops, request(4, 'attach', { instanceUuid: job(99) }), complete(4, { driver: 'vfio-pci' }));
    await run(ops, request(5, 'configure-vfs', { numVfs: 2 }), fail(5, 'DRIVER.DEVICE_BUSY', { deviceState: 'unchanged' }));
    await caughtUp();
    expect((await deviceFacts()).map((event) => [event.type, event.data])).toEqual([
      [
        'inventory.RegionProgramFailed',
        expect.objectContaining({ jobId: job(1), region: 'region1', code: 'DRIVER.INJECTED_FAILURE', reason: 'it went wrong', regionHolds: { functionId: OLD_FUNCTION } }),
      ],
      [
        'inventory.ShellProgrammed',
        expect.objectContaining({ jobId: job(2), interfaceId: 'c7'.repeat(16), sha256: SHA, requestedBy: { user: 'workflow:provision', project: null, workflow: 'workflow-provision-compute-1' } }),
      ],
      ['inventory.VfsConfigured', expect.objectContaining({ jobId: job(3), numVfs: 8, previousNumVfs: 4 })],
    ]);
  });

  it("records finished driver jobs on the host's stream: what the agent read back, a failure's code and reason, an uninstall", async () => {
    const recap = { ok: 5, changed: 2, failed: 0, unreachable: 0, skipped: 1 };
    await run(ops, requestDriverJob(1, 'install-driver', { driver: 'nvidia-gpu' }), complete(1, { recap, version: '550.54.15' }));
    await run(ops, requestDriverJob(2, 'update-driver', { driver: 'nvidia-gpu', version: '560.1' }), fail(2, 'DRIVER.PLAYBOOK_FAILED', { recap: 'not counts' }));
    await run(byWorkflow, requestDriverJob(3, 'uninstall-driver', { driver: 'nvidia-gpu' }), complete(3, {}));
    await caughtUp();
    const facts = await driverFacts();
    const [completed] = (await store.readStream(jobStream(job(1)))).slice(-1);
    expect(facts.map((event) => [event.type, event.data])).toEqual([
      ['inventory.DriverInstalled', { hostname: 'compute-1', driver: 'nvidia-gpu', version: '550.54.15', recap, jobId: job(1) }],
      ['inventory.DriverFailed', { hostname: 'compute-1', driver: 'nvidia-gpu', operation: 'update', recap: null, reason: 'DRIVER.PLAYBOOK_FAILED: it went wrong', jobId: job(2) }],
      ['inventory.DriverUninstalled', { hostname: 'compute-1', driver: 'nvidia-gpu', recap: null, jobId: job(3) }],
    ]);
    expect(facts[0].metadata).toMatchObject({ actor: ops.actor, correlationId: 'req-ops-1', causationId: completed.id });
    expect(facts[2].metadata).toMatchObject({ actor: byWorkflow.actor, correlationId: 'workflow-provision-compute-1' });
    expect(await deviceFacts()).toEqual([]);
  });

  it('records, when it starts again from its checkpoint, the facts of jobs that finished while it was down (a kill between the result and the fact)', async () => {
    await run(ops, requestDriverJob(1, 'install-driver', { driver: 'nvidia-gpu', version: '550.54.15' }), request(2, 'configure-vfs', { numVfs: 8 }));
    await caughtUp();
    await reactors.stop();
    await run(ops, complete(1, {}), complete(2, { numVfs: 8, previousNumVfs: 4 }));
    expect(await driverFacts()).toEqual([]);
    await startReactor(db);
    await caughtUp();
    expect((await driverFacts()).map((event) => [event.type, (event.data as { jobId: string }).jobId])).toEqual([['inventory.DriverInstalled', job(1)]]);
    expect((await deviceFacts()).map((event) => [event.type, (event.data as { jobId: string }).jobId])).toEqual([['inventory.VfsConfigured', job(2)]]);
  });

  it('records a failure the agent could not read back (a ledger timeout) with regionHolds null', async () => {
    await run(ops, request(1, 'program', { deployableUuid: DEPLOYABLE, image }), { type: 'TimeOutJob', jobId: job(1), now: '2026-03-02T00:00:00.000Z' });
    await caughtUp();
    expect((await deviceFacts()).map((event) => event.data)).toEqual([
      expect.objectContaining({ code: 'JOB.TIMED_OUT', regionHolds: null, deviceState: null }),
    ]);
  });

  it('appends nothing more when the whole log is sent again (a crash before the checkpoint moved)', async () => {
    await run(ops, request(1, 'program', { deployableUuid: DEPLOYABLE, image }), complete(1, { functionId: FUNCTION, sha256: SHA, previousFunctionId: null }));
    await run(ops, request(2, 'configure-vfs', { numVfs: 8 }), complete(2, { numVfs: 8, previousNumVfs: 4 }));
    await run(ops, requestDriverJob(3, 'install-driver', { driver: 'nvidia-gpu' }), complete(3, {}));
    await caughtUp();
    const before = await deviceFacts();
    const driversBefore = await driverFacts();
    expect(before).toHaveLength(2);
    expect(driversBefore).toHaveLength(1);
    await reactors.stop();
    const freshCheckpoints = await openSqliteSqlDatabase({ file: ':memory:' });
    try {
      await startReactor(freshCheckpoints);
      await caughtUp();
      expect(await deviceFacts()).toEqual(before);
      expect(await driverFacts()).toEqual(driversBefore);
      expect(await reactors.parked('job-facts')).toEqual([]);
    } finally {
      await reactors.stop();
      await freshCheckpoints.close();
      await startReactor(db);
    }
  });

  it('parks a completed program whose evidence proves no function, and goes on with the next job', async () => {
    await run(ops, request(1, 'program', { deployableUuid: DEPLOYABLE, image }), complete(1, { sha256: SHA }));
    await run(ops, request(2, 'configure-vfs', { numVfs: 8 }), complete(2, { numVfs: 8, previousNumVfs: 4 }));
    await caughtUp();
    expect(await reactors.parked('job-facts')).toEqual([
      expect.objectContaining({ type: 'jobs.JobCompleted', stream: jobStream(job(1)), error: expect.stringContaining('functionId must be 32 hex digits') }),
    ]);
    expect((await deviceFacts()).map((event) => event.type)).toEqual(['inventory.VfsConfigured']);
  });
});
