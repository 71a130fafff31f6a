import type { CommandBus } from '@nestjs/cqrs';
import { AggregateCache, type CommandContext, deciderCommandHandler } from '@ledger/eventstore';
import { jobDecider, jobStream, type JobState } from '@ledger/jobs';
import { DispatchJobHandler } from '@ledger/jobs/nest';
import type { JobQueries } from '@ledger/projections/jobs';
import { InMemoryEventStore } from '@ledger/processing/testing';
import type { ConsistencyService } from '../http/consistency.service';
import { ArrivalTicket, type JobArrivals } from './job-arrivals';
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
  const jobs = () => deciderCommandHandler(store, { decider: jobDecider, streamOf: (command) => jobStream(command.jobId), cache: new AggregateCache<JobState>() });
  const requestJob = async () =>
    (await jobs().run({ type: 'RequestJob', jobId: JOB, hostname: HOST, kind: 'discover', params: {}, requestedAt: new Date().toISOString() }, context)).position!;
  const next = () => poll.next({ hostname: HOST, agentBoot: 'boot-1', waitSeconds: 30, context, signal: new AbortController().signal });

  beforeEach(() => {
    store = new InMemoryEventStore();
    ticket = new ArrivalTicket(() => undefined);
    projected = [];
    projectionReached = [];
    const dispatch = new DispatchJobHandler(jobs());
    const commands = { execute: (command: Parameters<DispatchJobHandler['execute']>[0]) => dispatch.execute(command) } as unknown as CommandBus;
    const queries = { offerable: async () => projected } as unknown as JobQueries;
    // The projection is behind: a wait for a position resolves only once a test moved it there.
    const consistency = {
      awaitFresh: async () => undefined,
      awaitPosition: (position: number) => new Promise<void>((resolve) => projectionReached.push(position) && setImmediate(resolve)),
    } as unknown as ConsistencyService;
    poll = new NextJobsLongPoll(queries, commands, { ticket: () => ticket } as unknown as JobArrivals, consistency);
  });

  afterEach(() => store.close());

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

  it("takes a replica's job (an arrival without ids) from the projection, once it reaches the job's position", async () => {
    const polled = next();
    const position = await requestJob();
    projected = [JOB];
    ticket.arrive(position);
    expect((await polled).map((offer) => offer.jobId)).toEqual([JOB]);
    expect(projectionReached).toEqual([position]);
  });
});
