import { Module } from '@nestjs/common';
import { JobsModule } from '@ledger/jobs/nest';
import { JobResultFactsModule } from './job-result-facts.module';
import { ConsistencyService } from '../http/consistency.service';
import { inventoryQueriesProvider } from '../inventory/inventory-queries.provider';
import { HostDriversController } from './host-drivers.controller';
import { HostJobsController } from './host-jobs.controller';
import { JobArrivalsModule } from './job-arrivals.module';
import { jobQueriesProvider } from './job-queries.provider';
import { jobsWaitingProvider } from './jobs-waiting.provider';
import { JobsController } from './jobs.controller';
import { NextJobsLongPoll } from './next-jobs.long-poll';

/**
 * The job API under /api/v1: requests, the agents' long poll and results,
 * reads of the jobs projection, hosts' drivers, and the heartbeat's
 * `jobsWaiting` (JOBS_WAITING). JobsModule is imported for
 * JobReader (the app imports it in the conductor role too; Nest keeps one instance).
 */
@Module({
  imports: [JobsModule, JobResultFactsModule, JobArrivalsModule],
  controllers: [HostJobsController, JobsController, HostDriversController],
  providers: [jobQueriesProvider, jobsWaitingProvider, inventoryQueriesProvider, ConsistencyService, NextJobsLongPoll],
})
export class JobsHttpModule {}
