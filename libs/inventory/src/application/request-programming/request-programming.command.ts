import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import type { DeployableTarget } from '../deployable-on-host';

export interface RequestedJob {
  readonly jobId: string;
  /** Global position of the event, for read-your-writes. */
  readonly position: number | undefined;
}

/**
 * Asks the deployable's host agent to load a bitstream (Cyborg's PATCH
 * /v2/deployables/{uuid}/program): records the request as a job.
 */
export class RequestProgrammingCommand extends Command<RequestedJob> {
  constructor(
    readonly input: DeployableTarget & { readonly imageUuid: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
