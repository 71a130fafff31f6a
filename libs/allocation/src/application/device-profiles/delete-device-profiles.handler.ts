import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, type EventStore, handleCommand, loadAggregate } from '@ledger/eventstore';
import { type DeleteDeviceProfile, deviceProfileDecider, type DeviceProfileState } from '../../domain/device-profile.decider';
import { DeviceProfileInvalidError, DeviceProfileNotFoundError } from '../../domain/device-profile.errors';
import { DEVICE_PROFILE_EVENT_SCHEMA_VERSIONS, type DeviceProfileDeleted } from '../../domain/device-profile.events';
import { isDeviceProfileName } from '../../domain/device-profile-input';
import { deviceProfileStream } from '../../domain/device-profile.streams';
import { DeleteDeviceProfilesCommand, type DeleteDeviceProfilesResult } from './delete-device-profiles.command';
import { DEVICE_PROFILE_CACHE } from './device-profile.tokens';

@CommandHandler(DeleteDeviceProfilesCommand)
export class DeleteDeviceProfilesHandler implements ICommandHandler<DeleteDeviceProfilesCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DEVICE_PROFILE_CACHE) private readonly cache: AggregateCache<DeviceProfileState>,
  ) {}

  async execute({ input, context }: DeleteDeviceProfilesCommand): Promise<DeleteDeviceProfilesResult> {
    const commands = toCommands(input?.profiles);
    // All or nothing: decide every delete on the current state first; a refusal throws before anything is appended.
    for (const command of commands) {
      const { state } = await loadAggregate(this.store, deviceProfileStream(command.name), deviceProfileDecider, this.cache);
      deviceProfileDecider.decide(command, state);
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
}

/** One command per distinct name; a name no profile can have is simply not found. */
function toCommands(profiles: DeleteDeviceProfilesCommand['input']['profiles'] | undefined): DeleteDeviceProfile[] {
  if (!Array.isArray(profiles) || profiles.length === 0) {
    throw new DeviceProfileInvalidError('profiles', 'Name at least one device profile to delete');
  }
  const byName = new Map<string, DeleteDeviceProfile>();
  for (const { name, uuid } of profiles) {
    if (!isDeviceProfileName(name)) throw new DeviceProfileNotFoundError('name', String(name));
    byName.set(name, { type: 'DeleteDeviceProfile', name, ...(uuid !== undefined ? { uuid } : {}) });
  }
  return [...byName.values()];
}
