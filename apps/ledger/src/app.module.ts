import { type DynamicModule, Module, type Provider, type Type } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { TokenCodec } from '@ledger/auth';
import { AuthModule } from '@ledger/auth/nest';
import type { LedgerConfig } from '@ledger/config';
import { InventoryModule } from '@ledger/inventory/nest';
import { ProgrammingModule } from '@ledger/programming/nest';
import { QuotaModule } from '@ledger/quota/nest';
import { AgentsModule } from './agents/agents.module';
import { AllocationConductorModule } from './allocation/allocation-conductor.module';
import { AuditHttpModule } from './audit/audit-http.module';
import { SnapshotTakingModule } from './audit/snapshot-taking.module';
import { CyborgV2Module } from './cyborg-v2/cyborg-v2.module';
import { GraphqlApiModule } from './graphql/graphql-api.module';
import { HealthController } from './http/health.controller';
import { DeviceCleaningPolicyModule } from './inventory/device-cleaning-policy.module';
import { HealthPolicyModule } from './inventory/health-policy.module';
import { InventoryHttpModule } from './inventory/inventory-http.module';
import { JobsConductorModule } from './jobs/jobs-conductor.module';
import { JobsHttpModule } from './jobs/jobs-http.module';
import { PersistenceModule } from './infrastructure/persistence.module';
import { PlacementHttpModule } from './placement/placement-http.module';
import { ProcessorsModule } from './infrastructure/processors.module';
import { WorkflowRuntimeModule } from './infrastructure/workflow-runtime.module';
import type { LedgerWorkflows } from './infrastructure/ledger-workflows';
import { ReadinessService } from './infrastructure/readiness.service';
import { ledgerIdentity } from './infrastructure/identity';
import type { LedgerMetrics } from './metrics/ledger-metrics';
import { MetricsModule } from './metrics/metrics.module';
import { ProgrammingHttpModule } from './programming/programming-http.module';
import { ProvisioningConductorModule } from './provisioning/provisioning-conductor.module';
import { ProvisioningHttpModule } from './provisioning/provisioning-http.module';
import { TracingModule } from './tracing/tracing.module';
import { QuotaHttpModule } from './quota/quota-http.module';
import { ReactorsHttpModule } from './reactors/reactors-http.module';
import { WorkflowsHttpModule } from './workflows/workflows-http.module';
import { ShutdownLog } from './logging/shutdown-log';

/**
 * The composition root. Roles pick what this process runs: `conductor` the
 * command handlers (the only writers), `api` the HTTP surface on top of
 * them, `processors` the checkpointed projections. Health probes are always on,
 * and so are the metrics (GET /metrics) when `metrics` is given (LEDGER_METRICS).
 */
@Module({})
export class AppModule {
  static forRoot(config: LedgerConfig, codec: TokenCodec, workflows?: LedgerWorkflows, metrics?: LedgerMetrics): DynamicModule {
    const imports: (DynamicModule | Type)[] = [
      CqrsModule.forRoot(),
      ...(metrics ? [MetricsModule.forRoot(metrics)] : []),
      PersistenceModule.forRoot(config),
      authModule(config, codec),
      HealthPolicyModule.forRoot(config),
    ];
    if (config.tracing) imports.push(TracingModule.forRoot(config.tracing, config));
    if (config.roles.includes('conductor')) imports.push(DeviceCleaningPolicyModule, InventoryModule, QuotaModule, AllocationConductorModule, JobsConductorModule);
    if (config.roles.includes('conductor')) imports.push(ProgrammingModule.forRoot(config.bitstreams), WorkflowRuntimeModule.forRoot(config, workflows));
    if (config.roles.includes('conductor')) imports.push(ProvisioningConductorModule.forRoot(config));
    if (config.roles.includes('processors')) imports.push(ProcessorsModule.forRoot(config), SnapshotTakingModule.forRoot());
    if (config.roles.includes('api')) imports.push(InventoryHttpModule, QuotaHttpModule, CyborgV2Module, JobsHttpModule, PlacementHttpModule);
    if (config.roles.includes('api')) imports.push(ProgrammingHttpModule, ProvisioningHttpModule, AuditHttpModule);
    if (config.roles.includes('api')) imports.push(GraphqlApiModule);
    if (config.roles.includes('api') && config.roles.includes('processors')) imports.push(ReactorsHttpModule, WorkflowsHttpModule);
    if (config.roles.includes('api') || config.roles.includes('processors')) imports.push(AgentsModule.forRoot(config));
    const providers: Provider[] = [ReadinessService, ShutdownLog];
    const controllers: Type[] = [HealthController];
    return { module: AppModule, imports, providers, controllers };
  }
}

function authModule(config: LedgerConfig, codec: TokenCodec): DynamicModule {
  const { auth, keystoneSession } = ledgerIdentity(config, codec);
  return AuthModule.forRoot(auth, keystoneSession);
}
