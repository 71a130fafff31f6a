import type { DeviceProfileTarget } from '@ledger/allocation';
import { isUuid } from '@ledger/kernel';

/**
 * What a DELETE names: Cyborg's `value` is one uuid or comma-separated
 * names. The command checks that every profile exists and that no live
 * accelerator request uses it, and otherwise deletes nothing (Cyborg deletes
 * name by name until one fails, and answers a used profile with a database
 * error).
 */
export function deletionTargetsOf(value: string): DeviceProfileTarget[] {
  if (isUuidLike(value)) return [{ uuid: value }];
  return [...new Set(value.split(','))].map((name) => ({ name }));
}

/** isUuid without narrowing: a string that is no uuid is still a string (names). */
const isUuidLike = (value: string): boolean => isUuid(value);
