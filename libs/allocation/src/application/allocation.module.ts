import { Module } from '@nestjs/common';
import { InventoryModule } from '@ledger/inventory/nest';
import { QuotaModule } from '@ledger/quota/nest';
import { ARQ_PROVIDERS } from './arqs/arq.providers';
import { DEVICE_PROFILE_PROVIDERS } from './device-profiles/device-profile.providers';

/**
 * The allocation command side: device profiles and accelerator requests.
 * Expects the app to import `CqrsModule.forRoot()` and to provide
 * `EVENT_STORE` globally.
 */
@Module({
  // The bind checks device capacity against the project's quota, and decides over devices and quotas with their contexts' caches.
  imports: [QuotaModule, InventoryModule],
  providers: [...DEVICE_PROFILE_PROVIDERS, ...ARQ_PROVIDERS],
  exports: [...DEVICE_PROFILE_PROVIDERS, ...ARQ_PROVIDERS],
})
export class AllocationModule {}
