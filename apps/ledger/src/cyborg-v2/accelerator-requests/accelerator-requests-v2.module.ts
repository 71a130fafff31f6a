import { Module } from '@nestjs/common';

/** Accelerator requests under /v2 (CYBORG-V2.md §1.3). */
@Module({})
export class AcceleratorRequestsV2Module {}
