import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { ArqVisibility } from '../arq-visibility';

/**
 * Deletes requests by uuid (`?arqs=`): all of them or, when one is unknown
 * or may not be deleted, none. A bound request needs the service role.
 */
export class DeleteArqsCommand extends LedgerCommand<void> {
  constructor(
    readonly input: { readonly uuids: readonly string[]; readonly visibility: ArqVisibility; readonly mayDeleteBound: boolean },
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** Deletes every request of an instance, bound or not (`?instance=`, Nova's clean-up; Cyborg unbinds first). Idempotent. */
export class DeleteInstanceArqsCommand extends LedgerCommand<void> {
  constructor(
    readonly input: { readonly instanceUuid: string; readonly visibility: ArqVisibility },
    readonly context: CommandContext,
  ) {
    super();
  }
}
