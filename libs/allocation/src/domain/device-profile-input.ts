import { isUuid } from '@ledger/kernel';
import { type DeviceProfileGroup, normalizeDeviceProfileGroups } from './device-profile-groups';
import { DeviceProfileInvalidError } from './device-profile.errors';

export const DEVICE_PROFILE_NAME_PATTERN = /^[a-zA-Z0-9-_]+$/;
export const MAX_DEVICE_PROFILE_NAME_LENGTH = 255;
export const MAX_DEVICE_PROFILE_DESCRIPTION_LENGTH = 255;

const FIELDS: readonly string[] = ['name', 'groups', 'description', 'uuid'];

/** A profile as an admin asks for it, checked: what Cyborg's POST takes (`uuid` optional). */
export interface DeviceProfileInput {
  readonly name: string;
  readonly description: string | null;
  readonly groups: readonly DeviceProfileGroup[];
  /** Lower-cased; absent when the ledger should choose one. */
  readonly uuid?: string;
}

/** Whether `name` can name a profile (and so a stream). */
export const isDeviceProfileName = (name: unknown): name is string =>
  typeof name === 'string' && name.length <= MAX_DEVICE_PROFILE_NAME_LENGTH && DEVICE_PROFILE_NAME_PATTERN.test(name);

/**
 * Checks one profile of a POST body: an object with `name` and `groups`,
 * optional `description` and `uuid`, nothing else. Where Cyborg answers a
 * missing name with a 500, this is a 400 like every other rule.
 */
export function readDeviceProfileInput(body: unknown): DeviceProfileInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DeviceProfileInvalidError('', 'A device profile is an object with name and groups (and optionally description and uuid)');
  }
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((field) => !FIELDS.includes(field));
  if (unknown !== undefined) {
    throw new DeviceProfileInvalidError(unknown, `Unknown field ${unknown}: a device profile has only name, groups, description and uuid`);
  }
  const { name, description, uuid } = fields;
  if (name === undefined || name === null || name === '') throw new DeviceProfileInvalidError('name', 'DeviceProfile name needed.');
  if (!isDeviceProfileName(name)) {
    throw new DeviceProfileInvalidError(
      'name',
      `Device profile name must be of the form ${DEVICE_PROFILE_NAME_PATTERN.source} and at most ${MAX_DEVICE_PROFILE_NAME_LENGTH} characters`,
    );
  }
  if (description !== undefined && description !== null && (typeof description !== 'string' || description.length > MAX_DEVICE_PROFILE_DESCRIPTION_LENGTH)) {
    throw new DeviceProfileInvalidError('description', `Device profile description must be null or a string of at most ${MAX_DEVICE_PROFILE_DESCRIPTION_LENGTH} characters`);
  }
  if (uuid !== undefined && uuid !== null && !isUuid(uuid)) throw new DeviceProfileInvalidError('uuid', 'Device profile uuid must be a UUID');
  return {
    name,
    description: typeof description === 'string' ? description : null,
    groups: normalizeDeviceProfileGroups(fields.groups),
    ...(typeof uuid === 'string' ? { uuid: uuid.toLowerCase() } : {}),
  };
}
