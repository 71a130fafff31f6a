import { Module } from '@nestjs/common';

/** Device profiles under /v2 (CYBORG-V2.md §1.3). */
@Module({})
export class DeviceProfilesV2Module {}
