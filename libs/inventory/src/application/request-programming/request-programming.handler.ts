import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, type EventStore, handleCommand } from '@ledger/eventstore';
import { NotFoundError, uuidV7 } from '@ledger/kernel';
import { deviceJobDecider } from '../../domain/device-job.decider';
import { DEVICE_JOB_EVENT_SCHEMA_VERSIONS, jobStream } from '../../domain/device-job.events';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import { InventoryErrorCodes } from '../../domain/inventory.errors';
import { HOST_INVENTORY_CACHE } from '../inventory.tokens';
import { findDeployableOnHost } from '../deployable-on-host';
import { RequestProgrammingCommand, type RequestedJob } from './request-programming.command';

@CommandHandler(RequestProgrammingCommand)
export class RequestProgrammingHandler implements ICommandHandler<RequestProgrammingCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hostCache: AggregateCache<HostInventoryState>,
  ) {}

  async execute({ input, context }: RequestProgrammingCommand): Promise<RequestedJob> {
    const reported = await findDeployableOnHost(this.store, this.hostCache, input);
    if (!reported) {
      throw new NotFoundError(InventoryErrorCodes.DEPLOYABLE_NOT_FOUND, `deployable ${input.deployableUuid} is not in the inventory`, {
        uuid: input.deployableUuid,
      });
    }
    const jobId = uuidV7();
    const command = {
      type: 'RequestProgramming',
      jobId,
      hostname: input.hostname,
      deviceUuid: reported.device.uuid,
      deviceType: reported.device.type,
      deployableUuid: reported.deployable.uuid,
      imageUuid: input.imageUuid,
      requestedAt: new Date().toISOString(),
    } as const;
    const result = await handleCommand(this.store, jobStream(jobId), deviceJobDecider, command, context, {
      schemaVersions: DEVICE_JOB_EVENT_SCHEMA_VERSIONS,
    });
    return { jobId, position: result.position };
  }
}
