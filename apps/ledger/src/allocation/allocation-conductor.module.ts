import { Module } from '@nestjs/common';
import { AllocationModule } from '@ledger/allocation';
import { AllocationDirectoryModule } from './allocation-directory.module';
import { AllocationSweepSchedule } from './allocation-sweep.schedule';

/** The allocation commands, their port onto the read models, and the sweeper that finishes interrupted work. */
@Module({
  imports: [AllocationDirectoryModule, AllocationModule],
  providers: [AllocationSweepSchedule],
  exports: [AllocationModule, AllocationSweepSchedule],
})
export class AllocationConductorModule {}
