import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { DispatchJobCommand, type JobOffer } from '@ledger/jobs';
import { JobQueries, jobsProjection } from '@ledger/projections/jobs';
import { ConsistencyService } from '../http/consistency.service';
import { JobArrivals } from './job-arrivals';

export interface NextJobsRequest {
  readonly hostname: string;
  readonly agentBoot: string | null;
  readonly waitSeconds: number;
  readonly context: CommandContext;
  /** Aborted when the agent hangs up: nothing more is dispatched to a connection nobody reads. */
  readonly signal: AbortSignal;
}

/**
 * The agent's long poll: takes what waits for the host now (up to 16 jobs,
 * each recorded as JobDispatched before the answer), else waits until a job
 * arrives for the host or `waitSeconds` pass. A job requested in this
 * process while the poll waits is handed to it, recorded dispatched in its
 * request's own append (JobArrivals as WaitingPolls); one that came while
 * the poll was not waiting is dispatched from its own stream; one a replica
 * requested is found in the jobs projection once it holds it.
 */
@Injectable()
export class NextJobsLongPoll {
  constructor(
    @Inject(JobQueries) private readonly queries: JobQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(JobArrivals) private readonly arrivals: JobArrivals,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  async next(request: NextJobsRequest): Promise<JobOffer[]> {
    const until = Date.now() + request.waitSeconds * 1000;
    const ticket = this.arrivals.ticket(request.hostname, request.agentBoot);
    try {
      // A poll sees every job requested before it came; a projection that lags is waited for (a little), not read stale.
      await this.consistency.awaitFresh([jobsProjection.name]).catch(() => undefined);
      let offers = await this.take(request);
      for (;;) {
        const left = until - Date.now();
        if (offers.length > 0 || left <= 0 || request.signal.aborted || ticket.ended) return offers;
        const arrival = await ticket.wait(left, request.signal);
        // A job handed to this poll was recorded dispatched to it with its request. Another requested in this process is
        // known by id: its own stream decides the dispatch, without waiting for the projection.
        offers = arrival ? [...arrival.handed, ...(await this.dispatch(request, arrival.jobIds))] : [];
        if (offers.length > 0) continue;
        // A replica's job is in the log; its projection row (what `take` reads) follows within moments.
        if (arrival) await this.consistency.awaitPosition(arrival.position, [jobsProjection.name]).catch(() => undefined);
        offers = await this.take(request);
      }
    } finally {
      ticket.close();
    }
  }

  private async take(request: NextJobsRequest): Promise<JobOffer[]> {
    return this.dispatch(request, await this.queries.offerable(request.hostname, request.agentBoot, new Date().toISOString()));
  }

  /** Records each job dispatched to this poll's agent; a job finished or taken by it already is not offered. */
  private async dispatch({ hostname, agentBoot, context, signal }: NextJobsRequest, jobIds: readonly string[]): Promise<JobOffer[]> {
    const offers: JobOffer[] = [];
    for (const jobId of jobIds) {
      if (signal.aborted) break;
      const offer = await this.commands.execute(new DispatchJobCommand({ jobId, hostname, agentBoot }, context));
      if (offer) offers.push(offer);
    }
    return offers;
  }
}
