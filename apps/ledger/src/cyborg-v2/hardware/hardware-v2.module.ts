import { Module } from '@nestjs/common';

/** Devices, deployables and attributes under /v2 (CYBORG-V2.md §1.3). */
@Module({})
export class HardwareV2Module {}
