import { ArqInvalidError } from '@ledger/allocation';
import { isUuid } from '@ledger/kernel';

const PROFILE_NAME = /^[a-zA-Z0-9-_]{1,255}$/;

/** The body of `POST /v2/accelerator_requests`: `{device_profile_name, device_profile_group_id?, image_uuid?}`. */
export function readCreateArqsBody(body: unknown): { deviceProfileName: string; groupId: number | null } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ArqInvalidError('body', 'The body must be an object with device_profile_name');
  }
  const { device_profile_name: name, device_profile_group_id: group, image_uuid: image, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new ArqInvalidError(unknown[0], `Unknown members: ${unknown.join(', ')}`);
  if (typeof name !== 'string' || !PROFILE_NAME.test(name)) {
    throw new ArqInvalidError('device_profile_name', 'device_profile_name must name a device profile ([a-zA-Z0-9-_], at most 255)');
  }
  // The real client sends the group id as a string (or null); Cyborg reads it as an int.
  let groupId: number | null = null;
  if (group !== undefined && group !== null) {
    const text = typeof group === 'number' ? String(group) : group;
    if (typeof text !== 'string' || !/^\d{1,3}$/.test(text)) throw new ArqInvalidError('device_profile_group_id', 'device_profile_group_id must be a group index (0, 1, …)');
    groupId = Number(text);
  }
  // Accepted for the client's sake (it never sends it, see CYBORG-V2.md §11), but it must be an image id.
  if (image !== undefined && image !== null && !isUuid(image)) throw new ArqInvalidError('image_uuid', 'image_uuid must be a uuid');
  return { deviceProfileName: name, groupId };
}

/** Cyborg's list query: `instance`, `bind_state` (only `resolved`). Anything else is refused. */
export function readListQuery(query: Record<string, unknown>): { instanceUuid?: string; onlyResolved: boolean; asOf?: string } {
  const { instance, bind_state: bindState, asOf, ...rest } = query;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new ArqInvalidError(unknown[0], `Unknown query parameters: ${unknown.join(', ')}; use instance, bind_state and asOf`);
  if (asOf !== undefined && typeof asOf !== 'string') throw new ArqInvalidError('asOf', 'asOf is one position or time');
  if (instance !== undefined && !isUuid(instance)) throw new ArqInvalidError('instance', 'instance must be an instance uuid');
  if (bindState !== undefined && bindState !== 'resolved') throw new ArqInvalidError('bind_state', "bind_state accepts only 'resolved'");
  return {
    ...(instance !== undefined ? { instanceUuid: (instance as string).toLowerCase() } : {}),
    onlyResolved: bindState === 'resolved',
    ...(asOf !== undefined ? { asOf } : {}),
  };
}
