import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import type { LiveArq } from '../../../domain/arq.state';
import { ALLOCATION_DIRECTORY, type AllocationDirectory } from '../allocation-directory.port';
import { ArqHolds } from '../arq-holds';
import { assertAccepted, ArqStore } from '../arq-store';
import { DeleteArqsCommand, DeleteInstanceArqsCommand } from './delete-arqs.command';

@CommandHandler(DeleteArqsCommand)
export class DeleteArqsHandler implements ICommandHandler<DeleteArqsCommand> {
  constructor(
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(ArqHolds) private readonly holds: ArqHolds,
  ) {}

  async execute({ input, context }: DeleteArqsCommand): Promise<void> {
    const at = new Date().toISOString();
    const arqs = await Promise.all(input.uuids.map((uuid) => this.arqs.loadVisible(uuid, input.visibility)));
    for (const arq of arqs) assertAccepted(arq, { type: 'DeleteArq', uuid: arq.uuid, mayDeleteBound: input.mayDeleteBound, at });
    await Promise.all(arqs.map((arq) => deleteOne(this.arqs, this.holds, arq, input.mayDeleteBound, context)));
  }
}

@CommandHandler(DeleteInstanceArqsCommand)
export class DeleteInstanceArqsHandler implements ICommandHandler<DeleteInstanceArqsCommand> {
  constructor(
    @Inject(ALLOCATION_DIRECTORY) private readonly directory: AllocationDirectory,
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(ArqHolds) private readonly holds: ArqHolds,
  ) {}

  async execute({ input, context }: DeleteInstanceArqsCommand): Promise<void> {
    await this.directory.catchUp();
    const owned = await this.directory.arqsOfInstance(input.instanceUuid);
    const visible = owned.filter((arq) => input.visibility === 'all-projects' || arq.projectId === input.visibility.project);
    await Promise.all(
      visible.map(async ({ uuid }) => {
        const state = await this.arqs.load(uuid);
        if (state.status !== 'live') return; // deleted meanwhile: nothing left to do
        // Cyborg unbinds, then deletes; one ArqDeleted says both (the handle goes back right after).
        await deleteOne(this.arqs, this.holds, state, true, context);
      }),
    );
  }
}

async function deleteOne(arqs: ArqStore, holds: ArqHolds, arq: LiveArq, mayDeleteBound: boolean, context: CommandContext): Promise<void> {
  await arqs.run({ type: 'DeleteArq', uuid: arq.uuid, mayDeleteBound, at: new Date().toISOString() }, context);
  await holds.releaseAll({ uuid: arq.uuid, projectId: arq.projectId, deviceUuid: arq.binding?.deviceUuid ?? null }, context);
}
