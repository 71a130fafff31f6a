import { Inject, Injectable } from '@nestjs/common';
import { AggregateCache, type CommandContext, type CommandResult, EVENT_STORE, type EventStore, handleCommand } from '@ledger/eventstore';
import { ValidationError } from '@ledger/kernel';
import { type HostLivenessCommand, hostLivenessDecider, type HostLivenessState } from '../../domain/host-liveness.decider';
import { hostnameProblem } from '../../domain/hostname';
import { InventoryErrorCodes } from '../../domain/inventory.errors';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { hostStream } from '../../domain/streams';

/**
 * Runs liveness commands on a host's stream. Every heartbeat goes through
 * here, so the folded states are cached: an unchanged heartbeat costs one
 * read of the stream's (usually empty) tail and appends nothing.
 */
@Injectable()
export class HostLivenessRunner {
  // Sized for the 10,000-host scale target with headroom; states are immutable, so sharing them is safe.
  private readonly cache = new AggregateCache<HostLivenessState>(20_000);

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  run(command: HostLivenessCommand, context: CommandContext): Promise<CommandResult<HostLivenessState>> {
    // The stream name comes from the hostname, so it is checked before anything is read.
    const problem = hostnameProblem(command.hostname);
    if (problem) throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `hostname ${problem}`, { path: 'hostname' });
    return handleCommand(this.store, hostStream(command.hostname), hostLivenessDecider, command, context, {
      cache: this.cache,
      schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
    });
  }
}
