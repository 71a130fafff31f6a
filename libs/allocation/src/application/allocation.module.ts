import { Module } from '@nestjs/common';
import { ARQ_PROVIDERS } from './arqs/arq.providers';
import { DEVICE_PROFILE_PROVIDERS } from './device-profiles/device-profile.providers';

/**
 * The allocation command side: device profiles and accelerator requests.
 * Expects the app to import `CqrsModule.forRoot()` and to provide
 * `EVENT_STORE` globally.
 */
@Module({
  providers: [...DEVICE_PROFILE_PROVIDERS, ...ARQ_PROVIDERS],
  exports: [...DEVICE_PROFILE_PROVIDERS, ...ARQ_PROVIDERS],
})
export class AllocationModule {}
