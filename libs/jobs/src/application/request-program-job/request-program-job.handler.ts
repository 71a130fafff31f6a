import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { findDeployableOnHost, HOST_INVENTORY_CACHE, type HostInventoryState, InventoryErrorCodes } from '@ledger/inventory';
import { ConflictError, NotFoundError, uuidV7 } from '@ledger/kernel';
import { JobErrorCodes } from '../../domain/job.errors';
import type { ProgramParams } from '../../domain/job-params';
import type { JobCommands } from '../job-commands';
import { JOB_COMMANDS } from '../jobs.tokens';
import type { RequestedJob } from '../requested-job';
import { RequestProgramJobCommand } from './request-program-job.command';

@CommandHandler(RequestProgramJobCommand)
export class RequestProgramJobHandler implements ICommandHandler<RequestProgramJobCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hostCache: AggregateCache<HostInventoryState>,
    @Inject(JOB_COMMANDS) private readonly jobs: JobCommands,
  ) {}

  async execute({ input, context }: RequestProgramJobCommand): Promise<RequestedJob> {
    const found = await findDeployableOnHost(this.store, this.hostCache, input);
    if (!found) {
      throw new NotFoundError(InventoryErrorCodes.DEPLOYABLE_NOT_FOUND, `deployable ${input.deployableUuid} is not in the inventory`, {
        uuid: input.deployableUuid,
      });
    }
    const { device, deployable } = found;
    if (device.type !== 'FPGA') {
      throw new ConflictError(
        JobErrorCodes.NOT_PROGRAMMABLE,
        `deployable ${deployable.uuid} is on a ${device.type} device; only FPGA deployables can be programmed`,
        { deployableUuid: deployable.uuid, deviceType: device.type },
      );
    }
    const params: ProgramParams = {
      deviceUuid: device.uuid,
      deployableUuid: deployable.uuid,
      pciAddress: device.pciAddress,
      // Each region of a multi-region FPGA is reported as a deployable of its own, named for it.
      ...(device.deployables.length > 1 ? { region: deployable.name } : {}),
      image: { imageUuid: input.imageUuid },
    };
    const jobId = uuidV7();
    const result = await this.jobs.run(
      { type: 'RequestJob', jobId, hostname: input.hostname, kind: 'program', params, requestedAt: new Date().toISOString() },
      context,
    );
    return { jobId, position: result.position! };
  }
}
