import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { ReleaseAttachHandleCommand } from '@ledger/inventory';
import { ReleaseQuotaCommand } from '@ledger/quota';
import { capacityConsumer, quotaConsumersOf } from './capacity-quota';

/**
 * Gives back what a request holds outside its own stream: the attach handle
 * on its device and its quota. Every release is idempotent, so it runs again
 * harmlessly after a crash (the arq-holds reactor does exactly that).
 */
@Injectable()
export class ArqHolds {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  /** After an unbind: the handle and the capacity charge; the unit stays reserved until the request is deleted. */
  async releaseBinding(arq: { uuid: string; projectId: string; deviceUuid: string | null }, context: CommandContext): Promise<void> {
    if (arq.deviceUuid) await this.commands.execute(new ReleaseAttachHandleCommand({ deviceUuid: arq.deviceUuid, arqUuid: arq.uuid }, context));
    await this.commands.execute(new ReleaseQuotaCommand({ project: arq.projectId, consumerIds: [capacityConsumer(arq.uuid)] }, context));
  }

  /** After a delete: everything. */
  async releaseAll(arq: { uuid: string; projectId: string; deviceUuid: string | null }, context: CommandContext): Promise<void> {
    await Promise.all([
      arq.deviceUuid && this.commands.execute(new ReleaseAttachHandleCommand({ deviceUuid: arq.deviceUuid, arqUuid: arq.uuid }, context)),
      this.commands.execute(new ReleaseQuotaCommand({ project: arq.projectId, consumerIds: quotaConsumersOf(arq.uuid) }, context)),
    ]);
  }
}
