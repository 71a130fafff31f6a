import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { HostReport } from '../../domain/host-report';
import type { InventoryCommandResult } from '../inventory-command.result';

/** An agent's full report of its host. `receivedAt` defaults to the time the handler runs. */
export class ReportHostCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly report: HostReport,
    readonly context: CommandContext,
    readonly receivedAt?: string,
    /**
     * A digest of the request body that `report` was validated and built
     * from, and of nothing else (the same bytes always give the same
     * report). When the report turns out unchanged, the body is remembered
     * by it for ConfirmUnchangedReportCommand.
     */
    readonly bodyDigest?: string,
  ) {
    super();
  }
}
