import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ArqHolds } from '../arq-holds';
import { ArqStore } from '../arq-store';
import { UnbindArqsCommand } from './unbind-arqs.command';

@CommandHandler(UnbindArqsCommand)
export class UnbindArqsHandler implements ICommandHandler<UnbindArqsCommand> {
  constructor(
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(ArqHolds) private readonly holds: ArqHolds,
  ) {}

  async execute({ input, context }: UnbindArqsCommand): Promise<void> {
    // All visible, or nothing changes (an unknown uuid is a 404 before any unbind).
    const arqs = await Promise.all(input.uuids.map((uuid) => this.arqs.loadVisible(uuid, input.visibility)));
    await Promise.all(
      arqs.map(async (arq) => {
        await this.arqs.run({ type: 'UnbindArq', uuid: arq.uuid, at: new Date().toISOString() }, context);
        await this.holds.releaseBinding({ uuid: arq.uuid, projectId: arq.projectId, deviceUuid: arq.binding?.deviceUuid ?? null }, context);
      }),
    );
  }
}
