import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import type { HostReport } from '../../domain/host-report';
import type { InventoryCommandResult } from '../inventory-command.result';

/** An agent's full report of its host. `receivedAt` defaults to the time the handler runs. */
export class ReportHostCommand extends Command<InventoryCommandResult> {
  constructor(
    readonly report: HostReport,
    readonly context: CommandContext,
    readonly receivedAt?: string,
  ) {
    super();
  }
}
