import type { DeviceProfileView } from '@ledger/projections/device-profiles';
import { cyborgLinks, cyborgTime } from '../cyborg-representation';

/** A profile as Cyborg lists and creates it (samples device_profiles_list.json, device_profiles_post.json). */
export function cyborgDeviceProfile(profile: DeviceProfileView, baseUrl: string) {
  return {
    uuid: profile.uuid,
    name: profile.name,
    description: profile.description,
    groups: profile.groups,
    created_at: cyborgTime(profile.createdAt),
    updated_at: cyborgTime(profile.updatedAt),
    links: cyborgLinks(baseUrl, 'device_profiles', profile.uuid),
  };
}

/**
 * A profile as Cyborg shows one (sample device_profile_get_uuid.json): its
 * hand-built dict puts name first. The times keep our ISO form rather than
 * Cyborg's `str(datetime)` there, and a missing `updated_at` is null, not "None".
 */
export function cyborgDeviceProfileDetail(profile: DeviceProfileView, baseUrl: string) {
  const { uuid, name, description, ...rest } = cyborgDeviceProfile(profile, baseUrl);
  return { name, description, uuid, ...rest };
}
