import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { BindRequest } from './arq-patch';
import type { LiveArq } from '../../../domain/arq.state';
import type { ArqVisibility } from '../arq-visibility';

/**
 * Binds requests to the host and provider Nova chose: for each, BindStarted
 * → a free attach handle claimed on the provider's device → Bound (or
 * BindFailed). Everything that can be checked beforehand is, for all of
 * them, before anything is recorded.
 */
export class BindArqsCommand extends LedgerCommand<LiveArq[]> {
  constructor(
    readonly input: { readonly binds: readonly BindRequest[]; readonly visibility: ArqVisibility },
    readonly context: CommandContext,
  ) {
    super();
  }
}
