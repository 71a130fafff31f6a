import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth/nest';
import { JobQueries, type JobView } from '@ledger/projections/jobs';
import { pathUuid } from '../../inventory/inventory-not-found';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { connectionCost, pageRequestOf, presentArgs } from '../shared/page.args';
import { JobConnection, JobObject } from './job.object';
import { JobListArgs } from './jobs.args';

/** Jobs, as GET /api/v1/jobs serves them: operators only (admin, manager). */
@Resolver(() => JobObject)
@Allow('admin', 'manager')
export class JobsResolver {
  constructor(@Inject(JobQueries) private readonly queries: JobQueries) {}

  @Query(() => JobConnection, { description: 'Newest first.', complexity: connectionCost })
  async jobs(@Args() args: JobListArgs): Promise<ConnectionOf<JobView>> {
    const { hostname, state, kind } = args;
    return toConnection(await this.queries.listJobs({ ...presentArgs({ hostname, state, kind }), ...pageRequestOf(args) }));
  }

  @Query(() => JobObject, { nullable: true })
  async job(@Args('jobId') jobId: string): Promise<JobView | undefined> {
    return this.queries.getJob(pathUuid(jobId, 'jobId'));
  }
}
