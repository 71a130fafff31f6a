import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { QuotaConsumer } from '../../domain/quota.commands';
import type { QuotaCommandResult } from '../quota-command.result';

/**
 * Reserves quota for every consumer or for none: QUOTA.EXCEEDED (403) when
 * one resource would pass its limit, QUOTA.CONSUMER_CONFLICT (409) when a
 * consumer already holds other amounts. A consumer already holding the same
 * amounts appends nothing, so a retry is safe.
 */
export class ReserveQuotaCommand extends LedgerCommand<QuotaCommandResult> {
  constructor(
    readonly input: { readonly project: string; readonly consumers: readonly QuotaConsumer[] },
    readonly context: CommandContext,
  ) {
    super();
  }
}
