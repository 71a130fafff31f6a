import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, handleCommand, type EventStore } from '@ledger/eventstore';
import { hostInventoryDecider } from '../../domain/host-inventory.decider';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import { hostnameProblem } from '../../domain/hostname';
import { ReportInvalidError } from '../../domain/inventory.errors';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { hostStream } from '../../domain/streams';
import { toInventoryCommandResult, type InventoryCommandResult } from '../inventory-command.result';
import { HOST_INVENTORY_CACHE } from '../inventory.tokens';
import { ReportHostCommand } from './report-host.command';

@CommandHandler(ReportHostCommand)
export class ReportHostHandler implements ICommandHandler<ReportHostCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly cache: AggregateCache<HostInventoryState>,
  ) {}

  async execute({ report, context, receivedAt }: ReportHostCommand): Promise<InventoryCommandResult> {
    // The stream name comes from the hostname, so it is checked before anything is read.
    const problem = hostnameProblem(report?.hostname);
    if (problem) throw new ReportInvalidError('hostname', problem, report?.hostname);
    const result = await handleCommand(
      this.store,
      hostStream(report.hostname),
      hostInventoryDecider,
      { type: 'ReportHost', report, receivedAt: receivedAt ?? new Date().toISOString() },
      context,
      { cache: this.cache, schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS },
    );
    return toInventoryCommandResult(result);
  }
}
