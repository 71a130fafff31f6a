import { Global, Module } from '@nestjs/common';
import { ALLOCATION_DIRECTORY } from '@ledger/allocation';
import { ConsistencyService } from '../http/consistency.service';
import { ReadModelAllocationDirectory } from './allocation-directory.adapter';

/** Supplies the allocation commands' port onto the read models (the conductor role needs it). */
@Global()
@Module({
  providers: [ConsistencyService, { provide: ALLOCATION_DIRECTORY, useClass: ReadModelAllocationDirectory }],
  exports: [ALLOCATION_DIRECTORY],
})
export class AllocationDirectoryModule {}
