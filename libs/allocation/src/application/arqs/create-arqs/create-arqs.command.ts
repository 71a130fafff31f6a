import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { LiveArq } from '../../../domain/arq.state';

export interface CreateArqsInput {
  readonly deviceProfileName: string;
  /** Only this group's requests (Cyborg's optional `device_profile_group_id`); null: every group's. */
  readonly groupId: number | null;
  readonly projectId: string;
}

/**
 * Creates one request per unit of every `resources:*` of the profile's
 * groups, with quota reserved for all of them (all or none) in the same
 * atomic append where the store has one (CreateArqsAtOnce).
 */
export class CreateArqsCommand extends LedgerCommand<LiveArq[]> {
  constructor(
    readonly input: CreateArqsInput,
    readonly context: CommandContext,
  ) {
    super();
  }
}
