import type { Provider } from '@nestjs/common';
import { AggregateCache, type DeciderCommandHandler, deciderCommandHandler, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { type HostLivenessCommand, hostLivenessDecider, type HostLivenessState } from '../../domain/host-liveness.decider';
import { type HostInventoryEvent, type HostLivenessEvent, INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { checkedHostStream } from '../../domain/streams';
import { HOST_LIVENESS_COMMANDS } from '../inventory.tokens';

/** The liveness commands' runner on hosts' streams (AgentLost, AgentBack). */
export type HostLivenessCommands = DeciderCommandHandler<HostLivenessCommand, HostLivenessState, HostInventoryEvent | HostLivenessEvent>;

/**
 * Every heartbeat goes through here, so the folded states are cached: an
 * unchanged heartbeat costs one read of the stream's (usually empty) tail
 * and appends nothing.
 */
export function hostLivenessCommands(store: EventStore): HostLivenessCommands {
  return deciderCommandHandler(store, {
    decider: hostLivenessDecider,
    streamOf: (command) => checkedHostStream(command.hostname),
    // Sized for the 10,000-host scale target with headroom; states are immutable, so sharing them is safe.
    cache: new AggregateCache<HostLivenessState>(20_000),
    schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
  });
}

export const hostLivenessCommandsProvider: Provider = { provide: HOST_LIVENESS_COMMANDS, inject: [EVENT_STORE], useFactory: hostLivenessCommands };
