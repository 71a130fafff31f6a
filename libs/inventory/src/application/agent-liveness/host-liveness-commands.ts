import type { Provider } from '@nestjs/common';
import { AggregateCache, type DeciderCommandHandler, deciderCommandHandler, EVENT_STORE, type EventStore, STREAM_FRESHNESS, type StreamFreshness } from '@ledger/eventstore';
import { type HostLivenessCommand, hostLivenessDecider, type HostLivenessState } from '../../domain/host-liveness.decider';
import { type HostInventoryEvent, type HostLivenessEvent, INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { checkedHostStream } from '../../domain/streams';
import { HOST_LIVENESS_COMMANDS } from '../inventory.tokens';

/** The liveness commands' runner on hosts' streams (AgentLost, AgentBack). */
export type HostLivenessCommands = DeciderCommandHandler<HostLivenessCommand, HostLivenessState, HostInventoryEvent | HostLivenessEvent>;

/**
 * Every heartbeat goes through here, so the folded states are cached: an
 * unchanged heartbeat appends nothing and, with the process's freshness
 * (StreamVersionWatch), reads nothing either, unless the host's stream
 * moved since (then one read of its tail).
 */
export function hostLivenessCommands(store: EventStore, freshness?: StreamFreshness): HostLivenessCommands {
  return deciderCommandHandler(store, {
    decider: hostLivenessDecider,
    streamOf: (command) => checkedHostStream(command.hostname),
    // Sized for the 10,000-host scale target with headroom; states are immutable, so sharing them is safe.
    cache: new AggregateCache<HostLivenessState>(20_000),
    freshness,
    schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
  });
}

export const hostLivenessCommandsProvider: Provider = {
  provide: HOST_LIVENESS_COMMANDS,
  inject: [EVENT_STORE, { token: STREAM_FRESHNESS, optional: true }],
  useFactory: hostLivenessCommands,
};
