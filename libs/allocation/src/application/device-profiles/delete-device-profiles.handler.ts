import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, type EventStore, handleCommand, loadAggregate } from '@ledger/eventstore';
import { isUuid } from '@ledger/kernel';
import { type DeleteDeviceProfile, deviceProfileDecider, type DeviceProfileState } from '../../domain/device-profile.decider';
import { DeviceProfileInUseError, DeviceProfileInvalidError, DeviceProfileNotFoundError } from '../../domain/device-profile.errors';
import { DEVICE_PROFILE_EVENT_SCHEMA_VERSIONS, type DeviceProfileDeleted } from '../../domain/device-profile.events';
import { isDeviceProfileName } from '../../domain/device-profile-input';
import { deviceProfileStream } from '../../domain/device-profile.streams';
import { DeleteDeviceProfilesCommand, type DeleteDeviceProfilesResult } from './delete-device-profiles.command';
import { DeviceProfileIndex } from './device-profile-index';
import { DEVICE_PROFILE_CACHE } from './device-profile.tokens';

@CommandHandler(DeleteDeviceProfilesCommand)
export class DeleteDeviceProfilesHandler implements ICommandHandler<DeleteDeviceProfilesCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DEVICE_PROFILE_CACHE) private readonly cache: AggregateCache<DeviceProfileState>,
    @Inject(DeviceProfileIndex) private readonly index: DeviceProfileIndex,
  ) {}

  async execute({ input, context }: DeleteDeviceProfilesCommand): Promise<DeleteDeviceProfilesResult> {
    const profiles = input?.profiles;
    checkTargets(profiles);
    await this.index.catchUp();
    const commands = this.toCommands(profiles);
    // All or nothing: decide every delete on the current state first; a refusal throws before anything is appended.
    const doomed: DeviceProfileDeleted['data'][] = [];
    for (const command of commands) {
      const { state } = await loadAggregate(this.store, deviceProfileStream(command.name), deviceProfileDecider, this.cache);
      doomed.push(...deviceProfileDecider.decide(command, state).map((event) => event.data as DeviceProfileDeleted['data']));
    }
    for (const { name, uuid } of doomed) {
      const requests = this.index.requestsUsing(uuid);
      if (requests > 0) throw new DeviceProfileInUseError(name, uuid, requests);
    }
    const deleted: DeviceProfileDeleted['data'][] = [];
    let position = 0;
    for (const command of commands) {
      const result = await handleCommand(this.store, deviceProfileStream(command.name), deviceProfileDecider, command, context, {
        cache: this.cache,
        schemaVersions: DEVICE_PROFILE_EVENT_SCHEMA_VERSIONS,
      });
      deleted.push(...(result.events as DeviceProfileDeleted[]).map((event) => event.data));
      position = result.position as number;
    }
    return { deleted, position };
  }

  /** One command per distinct name; a uuid is looked up in the index; a name no profile can have is simply not found. */
  private toCommands(profiles: DeleteDeviceProfilesCommand['input']['profiles']): DeleteDeviceProfile[] {
    const byName = new Map<string, DeleteDeviceProfile>();
    for (const { name, uuid } of profiles) {
      const named = name ?? this.nameOf(uuid!);
      if (!isDeviceProfileName(named)) throw new DeviceProfileNotFoundError('name', String(named));
      byName.set(named, { type: 'DeleteDeviceProfile', name: named, ...(uuid !== undefined ? { uuid } : {}) });
    }
    return [...byName.values()];
  }

  private nameOf(uuid: string): string {
    const name = isUuid(uuid) ? this.index.nameOf(uuid) : undefined;
    if (name === undefined) throw new DeviceProfileNotFoundError('uuid', String(uuid).toLowerCase());
    return name;
  }
}

function checkTargets(profiles: DeleteDeviceProfilesCommand['input']['profiles'] | undefined): asserts profiles is DeleteDeviceProfilesCommand['input']['profiles'] {
  if (!Array.isArray(profiles) || profiles.length === 0) {
    throw new DeviceProfileInvalidError('profiles', 'Name at least one device profile to delete');
  }
}
