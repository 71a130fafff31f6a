import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { DeployableTarget } from '@ledger/inventory';
import type { RequestedJob } from '../requested-job';

/**
 * Cyborg's `PATCH /v2/deployables/{uuid}/program`: a `program` job for the
 * deployable's host, the image named by its Glance id (`params.image.imageUuid`;
 * the agent resolves it through its image service). The deployable is
 * re-checked on its host's stream: INVENTORY.DEPLOYABLE_NOT_FOUND (404) when
 * no longer reported, DEPLOYABLE.NOT_PROGRAMMABLE (409) when not on an FPGA.
 */
export class RequestProgramJobCommand extends LedgerCommand<RequestedJob> {
  constructor(
    readonly input: DeployableTarget & { readonly imageUuid: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
