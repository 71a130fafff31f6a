import type { DomainEvent } from '@ledger/kernel';
import type { DeviceProfileGroup } from './device-profile-groups';

/** Event type names of device profiles. */
export const DeviceProfileEventTypes = {
  DeviceProfileCreated: 'allocation.DeviceProfileCreated',
  DeviceProfileDeleted: 'allocation.DeviceProfileDeleted',
} as const;

export type DeviceProfileEventType = (typeof DeviceProfileEventTypes)[keyof typeof DeviceProfileEventTypes];

/** Schema version of each event type's data (upcast older versions on read). */
export const DEVICE_PROFILE_EVENT_SCHEMA_VERSIONS: Readonly<Record<DeviceProfileEventType, number>> = {
  'allocation.DeviceProfileCreated': 1,
  'allocation.DeviceProfileDeleted': 1,
};

/** What a profile is: `groups` in stored form (see normalizeDeviceProfileGroups). */
export interface DeviceProfileData {
  readonly uuid: string;
  readonly name: string;
  readonly description: string | null;
  readonly groups: readonly DeviceProfileGroup[];
  readonly createdAt: string;
}

/** An admin created a profile (a "flavor for devices"). Profiles never change; they are deleted and created anew. */
export type DeviceProfileCreated = DomainEvent<'allocation.DeviceProfileCreated', DeviceProfileData>;

/** The profile is gone (Cyborg deletes hard); its name is free again. */
export type DeviceProfileDeleted = DomainEvent<'allocation.DeviceProfileDeleted', { readonly uuid: string; readonly name: string }>;

export type DeviceProfileEvent = DeviceProfileCreated | DeviceProfileDeleted;

/** Every device-profile event type, for processor `handles` lists. */
export const DEVICE_PROFILE_EVENT_TYPES: readonly DeviceProfileEventType[] = Object.values(DeviceProfileEventTypes);
