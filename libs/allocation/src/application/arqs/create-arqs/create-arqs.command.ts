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
 * groups, after reserving quota for all of them at once (all or none).
 */
export class CreateArqsCommand extends LedgerCommand<LiveArq[]> {
  constructor(
    readonly input: CreateArqsInput,
    readonly context: CommandContext,
  ) {
    super();
  }
}
