import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import { PlacementSyncQueries } from '@ledger/placement';
import type { SqlDatabase } from '@ledger/processing';
import { PROVISION_PLACEMENT, type ProvisionPlacement } from '@ledger/provisioning';
import { ProvisioningModule } from '@ledger/provisioning/nest';
import { READ_MODEL_DB } from '../infrastructure/tokens';

/** The provisioning commands, and their port onto the Placement reconciler's sync statuses (read from the read-model database). */
@Global()
@Module({})
export class ProvisioningConductorModule {
  static forRoot(config: LedgerConfig): DynamicModule {
    return {
      module: ProvisioningConductorModule,
      global: true,
      imports: [ProvisioningModule],
      providers: [
        {
          provide: PROVISION_PLACEMENT,
          inject: [READ_MODEL_DB],
          useFactory: (db: SqlDatabase): ProvisionPlacement => {
            const queries = new PlacementSyncQueries(db);
            return { configured: config.placement.endpoint !== undefined, hostState: (hostname) => queries.host(hostname) };
          },
        },
      ],
      exports: [PROVISION_PLACEMENT, ProvisioningModule],
    };
  }
}
