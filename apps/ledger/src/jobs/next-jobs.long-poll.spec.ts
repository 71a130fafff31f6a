import type { CommandBus, EventBus } from '@nestjs/cqrs';
import { AggregateCache, type CommandContext, deciderCommandHandler } from '@ledger/eventstore';
import { hostStream } from '@ledger/inventory';
import { jobDecider, jobStream, type JobState, RequestJobCommand } from '@ledger/jobs';
import { DispatchJobHandler, RequestJobHandler } from '@ledger/jobs/nest';
import type { JobQueries } from '@ledger/projections/jobs';
import { InMemoryEventStore } from '@ledger/processing/testing';
import type { ConsistencyService } from '../http/consistency.service';
import { ArrivalTicket, JobArrivals } from './job-arrivals';
import { NextJobsLongPoll } from './next-jobs.long-poll';

const HOST = 'compute-1';
const JOB = '0196b3c2-0000-7000-8000-000000000001';
const context: CommandContext = { actor: { user: `agent:${HOST}`, project: null, roles: ['agent'] }, correlationId: 'poll-1' };

describe('the long poll', () => {
  let store: InMemoryEventStore;
  let ticket: ArrivalTicket;
  /** What the jobs projection holds: nothing until a test says (it lags the log). */
  let projected: string[];
  let projectionReached: number[];
  let poll: NextJobsLongPoll;
  /** DispatchJob commands the poll ran. */
  let dispatched: number;
  let commands: CommandBus;
  let consistency: ConsistencyService;
  let queriesOf: JobQueries;
  const jobs = () => deciderCommandHandler(store, { decider: jobDecider, streamOf: (command) => jobStream(command.jobId), cache: new AggregateCache<JobState>() });
  const requestJob = async () =>
    (await jobs().run({ type: 'RequestJob', jobId: JOB, hostname: HOST, kind: 'discover', params: {}, requestedAt: new Date().toISOString() }, context)).position!;
  const next = () => poll.next({ hostname: HOST, agentBoot: 'boot-1', waitSeconds: 30, context, signal: new AbortController().signal });

  beforeEach(() => {
    store = new InMemoryEventStore();
    ticket = new ArrivalTicket('boot-1', () => undefined);
    projected = [];
    projectionReached = [];
    const dispatch = new DispatchJobHandler(jobs());
    dispatched = 0;
    commands = {
      execute: (command: Parameters<DispatchJobHandler['execute']>[0]) => {
        dispatched++;
        return dispatch.execute(command);
      },
    } as unknown as CommandBus;
    const queries = { offerable: async () => projected } as unknown as JobQueries;
    // The projection is behind: a wait for a position resolves only once a test moved it there.
    consistency = {
      awaitFresh: async () => undefined,
      awaitPosition: (position: number) => new Promise<void>((resolve) => projectionReached.push(position) && setImmediate(resolve)),
    } as unknown as ConsistencyService;
    poll = new NextJobsLongPoll(queries, commands, { ticket: () => ticket } as unknown as JobArrivals, consistency);
    queriesOf = queries;
  });

  afterEach(() => store.close());

  /** Jobs go only to hosts that reported: the host's stream has begun. */
  const reported = () =>
    store.append(hostStream(HOST), [{ type: 'inventory.HostRegistered', data: { hostname: HOST }, metadata: { correlationId: 'report-1', causationId: null, actor: context.actor, schemaVersion: 1 } }], { expected: 'any' });

  /** The poll looks first, then waits: resolves once it waits, so that a request finds it waiting. */
  async function untilWaiting(arrivals: JobArrivals): Promise<void> {
    while (arrivals.waitingPolls(HOST) === 0) await new Promise(setImmediate);
  }

  it('dispatches a job requested in this process from its own stream, without waiting for the jobs projection', async () => {
    const polled = next();
    const position = await requestJob();
    ticket.arrive(position, JOB);
    expect((await polled).map((offer) => offer.jobId)).toEqual([JOB]);
    expect(projectionReached).toEqual([]);
    expect((await store.readStream(jobStream(JOB))).map((event) => [event.type, (event.data as { agentBoot?: string }).agentBoot])).toEqual([
      ['jobs.JobRequested', undefined],
      ['jobs.JobDispatched', 'boot-1'],
    ]);
  });

  it('is handed a job requested while it waits: dispatched to its agent boot in the request\'s own append, without a dispatch of its own', async () => {
    await reported();
    const arrivals = new JobArrivals({} as EventBus, queriesOf);
    const handingPoll = new NextJobsLongPoll(queriesOf, commands, arrivals, consistency);
    const polled = handingPoll.next({ hostname: HOST, agentBoot: 'boot-1', waitSeconds: 30, context, signal: new AbortController().signal });
    await untilWaiting(arrivals);
    const request = new RequestJobHandler(store, jobs(), undefined, arrivals);
    const requested = await request.execute(new RequestJobCommand({ hostname: HOST, kind: 'discover', params: {}, jobId: JOB }, context));

    expect((await polled).map((offer) => [offer.jobId, offer.attempt])).toEqual([[JOB, 1]]);
    expect(dispatched).toBe(0);
    const events = await store.readStream(jobStream(JOB));
    expect(events.map((event) => [event.type, (event.data as { agentBoot?: string }).agentBoot])).toEqual([
      ['jobs.JobRequested', undefined],
      ['jobs.JobDispatched', 'boot-1'],
    ]);
    // One append: the request's answer names the position of both.
    expect(events.map((event) => event.position)).toEqual([requested.position! - 1, requested.position]);
  });

  it('is not handed a job once its agent hung up: the job waits for the next poll', async () => {
    await reported();
    const arrivals = new JobArrivals({} as EventBus, queriesOf);
    const hangUp = new AbortController();
    const polled = new NextJobsLongPoll(queriesOf, commands, arrivals, consistency).next({ hostname: HOST, agentBoot: 'boot-1', waitSeconds: 30, context, signal: hangUp.signal });
    hangUp.abort();
    expect(await polled).toEqual([]);
    await new RequestJobHandler(store, jobs(), undefined, arrivals).execute(new RequestJobCommand({ hostname: HOST, kind: 'discover', params: {}, jobId: JOB }, context));
    expect((await store.readStream(jobStream(JOB))).map((event) => event.type)).toEqual(['jobs.JobRequested']);
  });

  it("takes a replica's job (an arrival without ids) from the projection, once it reaches the job's position", async () => {
    const polled = next();
    const position = await requestJob();
    projected = [JOB];
    ticket.arrive(position);
    expect((await polled).map((offer) => offer.jobId)).toEqual([JOB]);
    expect(projectionReached).toEqual([position]);
  });
});
