import { Module } from '@nestjs/common';
import { AggregateCache } from '@ledger/eventstore';
import { InventoryModule } from '@ledger/inventory/nest';
import type { JobState } from '../domain/job.state';
import { DispatchJobHandler } from './dispatch-job/dispatch-job.handler';
import { jobCommandsProvider } from './job-commands';
import { JobReader } from './job.reader';
import { JOB_CACHE } from './jobs.tokens';
import { RecordJobResultHandler } from './record-job-result/record-job-result.handler';
import { RequestJobHandler } from './request-job/request-job.handler';
import { RequestProgramJobHandler } from './request-program-job/request-program-job.handler';
import { TimeOutJobHandler } from './time-out-job/time-out-job.handler';

/**
 * The jobs command side and JobReader. Expects `CqrsModule.forRoot()` and a
 * global `EVENT_STORE` and `STREAM_LOCKS`; imports InventoryModule for the
 * host aggregates' cache (programming re-checks the deployable there).
 */
@Module({
  imports: [InventoryModule],
  providers: [
    // Jobs live minutes; this holds every job of a busy fleet's last hours. States carry no evidence, so they stay small.
    { provide: JOB_CACHE, useFactory: () => new AggregateCache<JobState>(10_000) },
    jobCommandsProvider,
    JobReader,
    RequestJobHandler,
    RequestProgramJobHandler,
    DispatchJobHandler,
    RecordJobResultHandler,
    TimeOutJobHandler,
  ],
  exports: [JobReader],
})
export class JobsModule {}
