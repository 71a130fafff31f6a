import { Global, Module } from '@nestjs/common';
import { WAITING_POLLS } from '@ledger/jobs';
import { JobArrivals } from './job-arrivals';
import { jobQueriesProvider } from './job-queries.provider';

/**
 * The agents' long polls waiting in this process (JobArrivals), and the
 * same as WAITING_POLLS: global, so that the jobs context's request handler
 * hands a new job to its host's waiting poll wherever JobsModule is
 * imported. Only the api role, which serves the polls, imports it.
 */
@Global()
@Module({
  providers: [jobQueriesProvider, JobArrivals, { provide: WAITING_POLLS, useExisting: JobArrivals }],
  exports: [JobArrivals, WAITING_POLLS],
})
export class JobArrivalsModule {}
