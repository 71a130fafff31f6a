import type { Provider } from '@nestjs/common';
import { AGENT_PRESENCE, type AgentPresenceLookup } from '@ledger/jobs';
import { LiveViewQueries } from '@ledger/projections/inventory';
import { TelemetryLiveView } from './telemetry-live-view';

/** What a job request is decided on (JOB.AGENT_UNAVAILABLE): the host's agent status and version from the live view. */
export const agentPresenceProvider: Provider = {
  provide: AGENT_PRESENCE,
  inject: [LiveViewQueries, TelemetryLiveView],
  useFactory:
    (queries: LiveViewQueries, liveView: TelemetryLiveView): AgentPresenceLookup =>
    async (hostname) => {
      // This replica's own heartbeats first, so an agent that has just started counts; other replicas' are at most LEDGER_TELEMETRY_FLUSH_MS old.
      await liveView.flush();
      const host = await queries.hostTelemetry(hostname);
      return host && { status: host.status, agentVersion: host.agentVersion, lastSeenAt: host.lastSeenAt };
    },
};
