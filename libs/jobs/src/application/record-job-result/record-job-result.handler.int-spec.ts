import { AggregateCache, type CommandContext, deciderCommandHandler, type EventStore, StreamLocks } from '@ledger/eventstore';
import type { Decider, DomainEvent } from '@ledger/kernel';
import { newEvent } from '@ledger/eventstore/testing';
import { InMemoryEventStore } from '@ledger/processing/testing';
import { jobDecider } from '../../domain/job.decider';
import { type JobCompleted, type JobFailed, jobStream } from '../../domain/job.events';
import type { JobState } from '../../domain/job.state';
import type { JobCommands } from '../job-commands';
import type { JobResultFacts } from './job-result-facts.port';
import { RecordJobResultCommand } from './record-job-result.command';
import { RecordJobResultHandler } from './record-job-result.handler';

type Noted = DomainEvent<'test.Noted', { jobId: string; outcome: string }>;
/** A toy aggregate that notes each job's outcome once, the way the device stream takes a job's fact once by job id. */
const notes: Decider<never, { jobs: readonly string[] }, Noted> = {
  decide: () => [],
  evolve: (state, event) => ({ jobs: [...state.jobs, event.data.jobId] }),
  initialState: () => ({ jobs: [] }),
};

const JOB = '0196b3c2-0000-7000-8000-000000000001';
const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const PARAMS = {
  carve: { deviceUuid: DEVICE, pciAddress: '0000:3b:00.0', profile: '1g.10gb', start: 0 },
  probe: { deviceUuid: DEVICE, pciAddress: '0000:3b:00.0' },
} as const;
const requester: CommandContext = { actor: { user: 'workflow:bind', project: null, roles: ['system'] }, correlationId: 'workflow-bind-1' };
const agent: CommandContext = { actor: { user: 'agent:compute-1', project: null, roles: ['agent'] }, correlationId: 'req-result-1' };

describe('RecordJobResultHandler: a result and the fact another context reads in it', () => {
  let store: InMemoryEventStore;
  let jobs: JobCommands;
  const locks = new StreamLocks();
  /** Notes every job of kind `carve` on `notes-compute-1`, unless the job was noted already. */
  const noting: JobResultFacts = (requested) =>
    requested.data.kind === 'carve'
      ? {
          participant: { stream: 'notes-compute-1', decider: notes, cache: new AggregateCache(), context: { actor: requested.metadata.actor, correlationId: requested.metadata.correlationId } },
          schemaVersions: {},
          decide: (state, finished: JobCompleted | JobFailed) =>
            (state as { jobs: readonly string[] }).jobs.includes(finished.data.jobId) ? [] : [{ type: 'test.Noted', data: { jobId: finished.data.jobId, outcome: finished.type } }],
        }
      : undefined;
  const handler = (facts?: JobResultFacts) => new RecordJobResultHandler(jobs, store as EventStore, locks, facts);
  const requestJob = (kind: 'carve' | 'probe') =>
    jobs.run({ type: 'RequestJob', jobId: JOB, hostname: 'compute-1', kind, params: PARAMS[kind], requestedAt: '2026-03-01T10:00:00.000Z' }, requester);
  const completed = new RecordJobResultCommand({ jobId: JOB, outcome: 'completed', evidence: { handle: 'MIG-1' } }, agent);

  beforeEach(() => {
    store = new InMemoryEventStore();
    jobs = deciderCommandHandler(store, { decider: jobDecider, streamOf: (command) => jobStream(command.jobId), cache: new AggregateCache<JobState>(), locks });
  });

  afterEach(() => store.close());

  it("records the fact in the result's append, as the job's requester asked it, caused by the request that brought the result", async () => {
    await requestJob('carve');
    const result = await handler(noting).execute(completed);
    const [finished] = (await store.readStream(jobStream(JOB))).slice(-1);
    const [noted] = await store.readStream('notes-compute-1');
    expect(finished.type).toBe('jobs.JobCompleted');
    expect(result).toMatchObject({ jobId: JOB, appended: 2, position: noted.position, state: { status: 'completed' } });
    expect(noted).toMatchObject({ position: finished.position + 1, data: { jobId: JOB, outcome: 'jobs.JobCompleted' } });
    expect(noted.metadata).toMatchObject({ actor: requester.actor, correlationId: 'workflow-bind-1', causationId: 'req-result-1' });
    // The result itself carries the job's correlation, as a result recorded alone does.
    expect(finished.metadata).toMatchObject({ actor: agent.actor, correlationId: 'workflow-bind-1', causationId: 'req-result-1' });
  });

  it('records the result alone when the fact is recorded already, when the job is a fact of nothing, or with no facts given', async () => {
    await requestJob('carve');
    await store.append('notes-compute-1', [newEvent('test.Noted', { jobId: JOB, outcome: 'jobs.JobCompleted' })], { expected: 'no_stream' });
    await handler(noting).execute(completed);
    expect(await store.readStream('notes-compute-1')).toHaveLength(1);
    for (const [kind, facts] of [['probe', noting], ['carve', undefined]] as const) {
      store = new InMemoryEventStore();
      jobs = deciderCommandHandler(store, { decider: jobDecider, streamOf: (command) => jobStream(command.jobId), cache: new AggregateCache<JobState>(), locks });
      await requestJob(kind);
      await handler(facts).execute(completed);
      expect((await store.readStream(jobStream(JOB))).map((event) => event.type)).toEqual(['jobs.JobRequested', 'jobs.JobCompleted']);
      expect(await store.readStream('notes-compute-1')).toEqual([]);
    }
  });

  it('refuses a second, different result and appends nothing to either stream', async () => {
    await requestJob('carve');
    await handler(noting).execute(completed);
    const failed = new RecordJobResultCommand({ jobId: JOB, outcome: 'failed', code: 'X', reason: 'late', evidence: {} }, agent);
    await expect(handler(noting).execute(failed)).rejects.toMatchObject({ code: 'JOB.ALREADY_FINISHED' });
    expect(await store.readStream('notes-compute-1')).toHaveLength(1);
    expect(await store.readStream(jobStream(JOB))).toHaveLength(2);
  });
});
