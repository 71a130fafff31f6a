import { Module } from '@nestjs/common';
import { AggregateCache, StreamLocks } from '@ledger/eventstore';
import type { HostDriversState } from '@ledger/inventory';
import { InventoryModule } from '@ledger/inventory/nest';
import type { JobState } from '../domain/job.state';
import { DispatchJobHandler } from './dispatch-job/dispatch-job.handler';
import { DriverFactsRecorder } from './driver-facts/driver-facts.recorder';
import { JobCommandRunner } from './job-command.runner';
import { JobReader } from './job.reader';
import { HOST_DRIVERS_CACHE, JOB_CACHE, JOB_STREAM_LOCKS } from './jobs.tokens';
import { RecordJobResultHandler } from './record-job-result/record-job-result.handler';
import { RequestJobHandler } from './request-job/request-job.handler';
import { RequestProgramJobHandler } from './request-program-job/request-program-job.handler';
import { TimeOutJobHandler } from './time-out-job/time-out-job.handler';

/**
 * The jobs command side, JobReader and DriverFactsRecorder. Expects
 * `CqrsModule.forRoot()` and a global `EVENT_STORE`; imports InventoryModule
 * for the host aggregates' cache (programming re-checks the deployable there).
 */
@Module({
  imports: [InventoryModule],
  providers: [
    // Jobs live minutes; this holds every job of a busy fleet's last hours. States carry no evidence, so they stay small.
    { provide: JOB_CACHE, useFactory: () => new AggregateCache<JobState>(10_000) },
    { provide: JOB_STREAM_LOCKS, useFactory: () => new StreamLocks() },
    { provide: HOST_DRIVERS_CACHE, useFactory: () => new AggregateCache<HostDriversState>(1_000) },
    JobCommandRunner,
    DriverFactsRecorder,
    JobReader,
    RequestJobHandler,
    RequestProgramJobHandler,
    DispatchJobHandler,
    RecordJobResultHandler,
    TimeOutJobHandler,
  ],
  exports: [JobReader, DriverFactsRecorder],
})
export class JobsModule {}
