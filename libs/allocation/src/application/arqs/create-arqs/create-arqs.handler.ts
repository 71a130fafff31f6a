import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type AggregateCache, type CommandContext, EVENT_STORE, type EventStore, loadAggregate } from '@ledger/eventstore';
import { uuidV7 } from '@ledger/kernel';
import { type ReserveQuota, ReserveQuotaCommand } from '@ledger/quota';
import type { CreateArq } from '../../../domain/arq.decider';
import { ArqInvalidError } from '../../../domain/arq.errors';
import type { ArqState, LiveArq } from '../../../domain/arq.state';
import { DeviceProfileNotFoundError } from '../../../domain/device-profile.errors';
import { parseDeviceProfileGroups, type RequestGroup } from '../../../domain/device-profile-groups';
import { deviceProfileDecider, type DeviceProfileState } from '../../../domain/device-profile.decider';
import { deviceProfileStream } from '../../../domain/device-profile.streams';
import { DEVICE_PROFILE_CACHE } from '../../device-profiles/device-profile.tokens';
import { ArqStore, liveOrThrow } from '../arq-store';
import { CreateArqsAtOnce, reservationFor } from './create-at-once';
import { CreateArqsCommand } from './create-arqs.command';

@CommandHandler(CreateArqsCommand)
export class CreateArqsHandler implements ICommandHandler<CreateArqsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DEVICE_PROFILE_CACHE) private readonly profiles: AggregateCache<DeviceProfileState>,
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CreateArqsAtOnce) private readonly atOnce: CreateArqsAtOnce,
  ) {}

  async execute({ input, context }: CreateArqsCommand): Promise<LiveArq[]> {
    // The profile's own stream, not the read model: the answer needs no projection to have caught up.
    const profile = (await loadAggregate(this.store, deviceProfileStream(input.deviceProfileName), deviceProfileDecider, this.profiles)).state.live;
    if (!profile) throw new DeviceProfileNotFoundError('name', input.deviceProfileName);
    const groups = chosenGroups(parseDeviceProfileGroups(profile.groups), input.groupId);
    const at = new Date().toISOString();
    const creates: CreateArq[] = groups.flatMap((group) =>
      group.resources.flatMap(({ resourceClass, amount }) =>
        Array.from({ length: amount }, () => ({
          type: 'CreateArq' as const,
          uuid: uuidV7(),
          projectId: input.projectId,
          deviceProfileUuid: profile.uuid,
          deviceProfileName: profile.name,
          groupId: group.index,
          resourceClass,
          requiredTraits: group.requiredTraits,
          forbiddenTraits: group.forbiddenTraits,
          ...(Object.keys(group.accel).length > 0 ? { accel: group.accel } : {}),
          at,
        })),
      ),
    );
    const reservation = reservationFor(input.projectId, creates);
    const states = this.atOnce.available ? await this.atOnce.create(reservation, creates, context) : await this.inTwoSteps(reservation, creates, context);
    return states.map((state, index) => liveOrThrow(state, creates[index].uuid));
  }

  /**
   * Where the store appends to one stream at a time (EventStoreDB): quota first, for all of them, so a
   * request that exists is always paid for. A crash before the requests are recorded leaves
   * reservations without requests, which the arq-holds reactor releases.
   */
  private async inTwoSteps(reservation: ReserveQuota, creates: readonly CreateArq[], context: CommandContext): Promise<ArqState[]> {
    await this.commands.execute(new ReserveQuotaCommand(reservation, context));
    return Promise.all(creates.map((create) => this.arqs.run(create, context)));
  }
}

function chosenGroups(groups: RequestGroup[], groupId: number | null): RequestGroup[] {
  if (groupId === null) return groups;
  const group = groups.find((candidate) => candidate.index === groupId);
  if (!group) throw new ArqInvalidError('device_profile_group_id', `The device profile has no group ${groupId} (it has ${groups.length})`);
  return [group];
}
