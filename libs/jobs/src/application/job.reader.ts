import { Inject, Injectable } from '@nestjs/common';
import { AggregateCache, EVENT_STORE, type EventStore, loadAggregate } from '@ledger/eventstore';
import { jobDecider } from '../domain/job.decider';
import { jobStream } from '../domain/job.events';
import type { JobState } from '../domain/job.state';
import { JOB_CACHE } from './jobs.tokens';

/**
 * A job as its stream knows it now, not as the projection may lag: what an
 * API checks a caller against (whose host the job is) before sending a result.
 */
@Injectable()
export class JobReader {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(JOB_CACHE) private readonly cache: AggregateCache<JobState>,
  ) {}

  async read(jobId: string): Promise<JobState> {
    return (await loadAggregate(this.store, jobStream(jobId), jobDecider, this.cache)).state;
  }
}
