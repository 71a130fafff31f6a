import { Module } from '@nestjs/common';
import { AcceleratorRequestsV2Module } from './accelerator-requests/accelerator-requests-v2.module';
import { DeviceProfilesV2Module } from './device-profiles/device-profiles-v2.module';
import { HardwareV2Module } from './hardware/hardware-v2.module';
import { VersionDiscoveryController } from './version-discovery.controller';

/** Cyborg's v2 API (CYBORG-V2.md): what Nova and `openstack accelerator` talk to. */
@Module({
  imports: [DeviceProfilesV2Module, AcceleratorRequestsV2Module, HardwareV2Module],
  controllers: [VersionDiscoveryController],
})
export class CyborgV2Module {}
