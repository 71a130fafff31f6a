import { Module } from '@nestjs/common';
import { JobsModule } from '@ledger/jobs/nest';
import { JobResultFactsModule } from './job-result-facts.module';
import { jobQueriesProvider } from './job-queries.provider';
import { JobTimeoutSweeper } from './job-timeout.sweeper';

/** The jobs command side and the sweeper that fails jobs past their deadline: the conductor role (the writers). */
@Module({
  imports: [JobsModule, JobResultFactsModule],
  providers: [jobQueriesProvider, JobTimeoutSweeper],
  exports: [JobsModule, JobTimeoutSweeper],
})
export class JobsConductorModule {}
