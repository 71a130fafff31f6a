import { Module } from '@nestjs/common';
import { AllocationModule } from '@ledger/allocation/nest';
import { AllocationDirectoryModule } from './allocation-directory.module';

/** The allocation commands and their port onto the read models. */
@Module({
  imports: [AllocationDirectoryModule, AllocationModule],
  exports: [AllocationModule],
})
export class AllocationConductorModule {}
