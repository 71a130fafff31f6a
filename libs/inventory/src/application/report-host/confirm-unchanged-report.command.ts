import { LedgerCommand } from '@ledger/kernel';
import type { InventoryCommandResult } from '../inventory-command.result';

/**
 * Is the report body with this digest one the full path already found
 * unchanged against the host as it stands now? The answer is the full
 * path's answer for an unchanged report, or undefined: then the caller
 * sends ReportHostCommand. `bodyDigest` must be the one the caller passes
 * as ReportHostCommand's for the same bytes (see that command).
 */
export class ConfirmUnchangedReportCommand extends LedgerCommand<InventoryCommandResult | undefined> {
  constructor(
    readonly hostname: string,
    readonly bodyDigest: string,
  ) {
    super();
  }
}
