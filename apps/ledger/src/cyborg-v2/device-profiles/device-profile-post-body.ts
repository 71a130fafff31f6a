import { DeviceProfileInvalidError } from '@ledger/allocation';

/**
 * The one profile of a POST body. Cyborg and its client send a list of
 * exactly one; Cyborg refuses a bare object, which we accept
 * (CYBORG-V2.md §10: avoid the one-item-list quirk without breaking it).
 */
export function profileOfPostBody(body: unknown): unknown {
  if (!Array.isArray(body)) {
    if (typeof body === 'object' && body !== null) return body;
    throw new DeviceProfileInvalidError('', 'The body must be a device profile, or a list of exactly one');
  }
  if (body.length !== 1) {
    throw new DeviceProfileInvalidError('', `Only one device profile allowed per POST request for now (got ${body.length})`);
  }
  return body[0];
}
