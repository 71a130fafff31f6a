import { Global, Module } from '@nestjs/common';
import type { AggregateCache } from '@ledger/eventstore';
import { DEVICE_CACHE, type DeviceState } from '@ledger/inventory';
import { deviceFactsOfJobResults } from '@ledger/inventory/job-facts';
import { InventoryModule } from '@ledger/inventory/nest';
import { JOB_RESULT_FACTS } from '@ledger/jobs';

/**
 * The inventory's reading of job results, recorded in each result's own
 * append (JOB_RESULT_FACTS: a carve's partition, a program's region, a
 * clean, on the device's stream), over the device cache the device
 * commands and the binds share. Global, so the jobs context's result
 * handler finds it wherever JobsModule is imported.
 */
@Global()
@Module({
  imports: [InventoryModule],
  providers: [{ provide: JOB_RESULT_FACTS, inject: [DEVICE_CACHE], useFactory: (cache: AggregateCache<DeviceState>) => deviceFactsOfJobResults(cache) }],
  exports: [JOB_RESULT_FACTS],
})
export class JobResultFactsModule {}
