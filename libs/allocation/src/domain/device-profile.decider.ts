import type { Decider } from '@ledger/kernel';
import { readDeviceProfileInput } from './device-profile-input';
import { DeviceProfileDuplicateError, DeviceProfileInvalidError, DeviceProfileNotFoundError } from './device-profile.errors';
import type { DeviceProfileData, DeviceProfileEvent } from './device-profile.events';

/** Create a profile under a name that is free. `uuid` and `createdAt` are chosen by the caller. */
export interface CreateDeviceProfile {
  readonly type: 'CreateDeviceProfile';
  readonly uuid: string;
  readonly name: string;
  readonly description: string | null;
  readonly groups: unknown;
  readonly createdAt: string;
}

/** Delete the live profile of this name; with `uuid`, only if it is still that very profile. */
export interface DeleteDeviceProfile {
  readonly type: 'DeleteDeviceProfile';
  readonly name: string;
  readonly uuid?: string;
}

export type DeviceProfileCommand = CreateDeviceProfile | DeleteDeviceProfile;

/** The stream of one name: the profile living under it, if any. */
export interface DeviceProfileState {
  readonly live: DeviceProfileData | null;
}

/**
 * Device profiles (stream `profile-<name>`). A name holds at most one live
 * profile; after a delete it can be used again, by a new profile with a new
 * uuid. Neither command is idempotent: Cyborg answers a repeated create with
 * 409 and a repeated delete with 404, and clients rely on that.
 */
export const deviceProfileDecider: Decider<DeviceProfileCommand, DeviceProfileState, DeviceProfileEvent> = {
  decide(command, state) {
    if (command.type === 'CreateDeviceProfile') {
      const { uuid, name, description, groups } = readDeviceProfileInput({
        uuid: command.uuid,
        name: command.name,
        description: command.description,
        groups: command.groups,
      });
      if (uuid === undefined) throw new DeviceProfileInvalidError('uuid', 'Device profile uuid must be a UUID');
      if (state.live) throw new DeviceProfileDuplicateError('name', name);
      return [{ type: 'allocation.DeviceProfileCreated', data: { uuid, name, description, groups, createdAt: command.createdAt } }];
    }
    const uuid = command.uuid?.toLowerCase();
    if (!state.live || (uuid !== undefined && state.live.uuid !== uuid)) {
      throw uuid !== undefined ? new DeviceProfileNotFoundError('uuid', uuid) : new DeviceProfileNotFoundError('name', command.name);
    }
    return [{ type: 'allocation.DeviceProfileDeleted', data: { uuid: state.live.uuid, name: state.live.name } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'allocation.DeviceProfileCreated':
        return { live: event.data };
      case 'allocation.DeviceProfileDeleted':
        return state.live?.uuid === event.data.uuid ? { live: null } : state;
      default:
        return state;
    }
  },
  initialState: () => ({ live: null }),
};
