import { hash } from 'node:crypto';

/**
 * The integer id Cyborg's v2 API shows for a device or deployable
 * (`device_id`, `deployable_id`), where Cyborg exposes its database ids. Ours
 * is derived from the uuid, so it is the same in every store and after every
 * rebuild: the first 48 bits of SHA-256(uuid), plus one so it is never 0.
 * At most 2^48, a safe JavaScript integer and a BIGINT. Two uuids share an
 * id with odds of about n²/2^49 (1 in 10^5 for 80,000 deployables).
 */
export function numericIdOf(uuid: string): number {
  return hash('sha256', uuid.toLowerCase(), 'buffer').readUIntBE(0, 6) + 1;
}
