import { AggregateCache, type DeciderCommandHandler, deciderCommandHandler, type EventStore } from '@ledger/eventstore';
import { hostDriversDecider, type HostDriversState, type RecordDriverOutcome } from '../domain/host-drivers.decider';
import { type HostDriverEvent, INVENTORY_EVENT_SCHEMA_VERSIONS } from '../domain/inventory.events';
import { hostStream } from '../domain/streams';

/** The runner of driver outcomes on hosts' streams (the job-facts reactor records finished driver jobs through it). */
export type HostDriversCommands = DeciderCommandHandler<RecordDriverOutcome, HostDriversState, HostDriverEvent>;

export function hostDriversCommands(store: EventStore): HostDriversCommands {
  return deciderCommandHandler(store, {
    decider: hostDriversDecider,
    streamOf: (command) => hostStream(command.hostname),
    // Driver jobs are rare: the hosts that ran one lately.
    cache: new AggregateCache<HostDriversState>(1_000),
    schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
  });
}
