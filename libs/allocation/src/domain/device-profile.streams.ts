/** Category of the device-profile streams, for processor filters. */
export const DEVICE_PROFILE_STREAM_CATEGORY = 'profile';

/**
 * The stream of every profile that ever had this name. Keyed by name, not
 * uuid, because the name is what must be unique: two concurrent creates of
 * one name meet on one stream, and its expected version decides between them.
 */
export const deviceProfileStream = (name: string): string => `${DEVICE_PROFILE_STREAM_CATEGORY}-${name}`;
