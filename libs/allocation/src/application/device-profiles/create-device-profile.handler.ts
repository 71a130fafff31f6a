import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, type EventStore, handleCommand } from '@ledger/eventstore';
import { uuidV7 } from '@ledger/kernel';
import { deviceProfileDecider, type DeviceProfileState } from '../../domain/device-profile.decider';
import { DeviceProfileDuplicateError } from '../../domain/device-profile.errors';
import { DEVICE_PROFILE_EVENT_SCHEMA_VERSIONS, type DeviceProfileCreated } from '../../domain/device-profile.events';
import { readDeviceProfileInput } from '../../domain/device-profile-input';
import { deviceProfileStream } from '../../domain/device-profile.streams';
import { CreateDeviceProfileCommand, type CreateDeviceProfileResult } from './create-device-profile.command';
import { DeviceProfileIndex } from './device-profile-index';
import { DEVICE_PROFILE_CACHE } from './device-profile.tokens';

@CommandHandler(CreateDeviceProfileCommand)
export class CreateDeviceProfileHandler implements ICommandHandler<CreateDeviceProfileCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DEVICE_PROFILE_CACHE) private readonly cache: AggregateCache<DeviceProfileState>,
    @Inject(DeviceProfileIndex) private readonly index: DeviceProfileIndex,
  ) {}

  async execute({ input, context, createdAt }: CreateDeviceProfileCommand): Promise<CreateDeviceProfileResult> {
    // The stream is named after the profile, so the input is checked before anything is read.
    const profile = readDeviceProfileInput(input);
    if (profile.uuid !== undefined) {
      // The name's stream decides name clashes; a uuid given by the caller is checked against every live profile.
      await this.index.catchUp();
      if (this.index.nameOf(profile.uuid) !== undefined) throw new DeviceProfileDuplicateError('uuid', profile.uuid);
    }
    const result = await handleCommand(
      this.store,
      deviceProfileStream(profile.name),
      deviceProfileDecider,
      { type: 'CreateDeviceProfile', ...profile, uuid: profile.uuid ?? uuidV7(), createdAt: createdAt ?? new Date().toISOString() },
      context,
      { cache: this.cache, schemaVersions: DEVICE_PROFILE_EVENT_SCHEMA_VERSIONS },
    );
    const [created] = result.events as DeviceProfileCreated[];
    return { profile: created.data, position: result.position as number };
  }
}
