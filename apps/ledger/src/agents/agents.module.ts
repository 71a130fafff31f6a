import { type DynamicModule, Module, type Provider, type Type } from '@nestjs/common';
import type { LedgerConfig } from '@ledger/config';
import { hostLivenessCommandsProvider } from '@ledger/inventory/nest';
import { AGENT_PRESENCE } from '@ledger/jobs';
import type { SqlDatabase } from '@ledger/processing';
import { LiveViewQueries } from '@ledger/projections/inventory';
import { ConsistencyService } from '../http/consistency.service';
import { READ_MODEL_DB } from '../infrastructure/tokens';
import { AgentLivenessMonitor } from './agent-liveness.monitor';
import { agentPresenceProvider } from './agent-presence.provider';
import { AgentSightings } from './agent-sightings';
import { HeartbeatController } from './heartbeat.controller';
import { HeartbeatRecorder } from './heartbeat-recorder';
import { JobsWaitingLookup } from './jobs-waiting.lookup';
import { TelemetryController } from './telemetry.controller';
import { TelemetryHistoryController } from './telemetry-history.controller';
import { TelemetryLiveView } from './telemetry-live-view';

/**
 * The ledger's side of agent heartbeats (docs/agent-protocol.md). `api`:
 * the heartbeat and telemetry endpoints, the live view they write and read,
 * reports counted as sightings. `processors`: the liveness monitor, which
 * records hosts lost (back is recorded by the heartbeat or report that
 * shows them alive). With `api` it also provides AGENT_PRESENCE, which job
 * requests are decided on.
 */
@Module({})
export class AgentsModule {
  static forRoot(config: LedgerConfig): DynamicModule {
    const controllers: Type[] = [];
    const providers: Provider[] = [];
    const exports: (symbol | Type)[] = [];
    if (config.roles.includes('api')) {
      controllers.push(HeartbeatController, TelemetryController, TelemetryHistoryController);
      providers.push(
        TelemetryLiveView,
        JobsWaitingLookup,
        HeartbeatRecorder,
        AgentSightings,
        ConsistencyService,
        { provide: LiveViewQueries, inject: [READ_MODEL_DB], useFactory: (db: SqlDatabase) => new LiveViewQueries(db) },
        agentPresenceProvider,
      );
      // The sightings for the report route's ReportSightingInterceptor, which Nest builds in InventoryHttpModule.
      exports.push(AGENT_PRESENCE, TelemetryLiveView, AgentSightings);
    }
    if (config.roles.includes('processors')) providers.push(hostLivenessCommandsProvider, AgentLivenessMonitor);
    // Global so that the jobs context's request handler finds AGENT_PRESENCE, and the report route the
    // live view, without importing the app's modules.
    return { module: AgentsModule, global: exports.length > 0, controllers, providers, exports };
  }
}
