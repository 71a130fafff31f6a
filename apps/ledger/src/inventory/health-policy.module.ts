import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import { HEALTH_POLICY } from '@ledger/inventory';
import { loadHealthPolicy } from './health-policy.file';

/** Provides the health policy to the inventory's handlers; loading it here, at start, refuses a bad file before anything runs. */
@Global()
@Module({})
export class HealthPolicyModule {
  static forRoot(config: LedgerConfig): DynamicModule {
    const policy = loadHealthPolicy(config.healthPolicyFile);
    return { module: HealthPolicyModule, providers: [{ provide: HEALTH_POLICY, useValue: policy }], exports: [HEALTH_POLICY] };
  }
}
