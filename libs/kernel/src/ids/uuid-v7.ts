import { randomBytes } from 'node:crypto';

/**
 * RFC 9562 UUIDv7: 48-bit Unix milliseconds, then random bits. Ids sort by
 * creation time, which keeps B-tree inserts local. A counter in the random
 * part keeps ids from one process strictly increasing within a millisecond.
 */
let lastMillis = 0;
let sequence = 0;

/** Random bytes drawn in bulk: one `randomBytes` call per id costs more than the rest of an append. */
const POOL_SIZE = 16 * 256;
let pool = Buffer.alloc(0);
let poolOffset = POOL_SIZE;

function random16(): Buffer {
  if (poolOffset >= POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

export function uuidV7(nowMillis: number = Date.now()): string {
  const bytes = random16();
  if (nowMillis <= lastMillis) {
    nowMillis = lastMillis;
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) nowMillis = ++lastMillis;
  } else {
    lastMillis = nowMillis;
    sequence = bytes.readUInt16BE(6) & 0x7ff;
  }
  bytes.writeUIntBE(nowMillis, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return formatUuid(bytes);
}

export function formatUuid(bytes: Uint8Array): string {
  // A view, not a copy: this runs for every derived id a rebuild writes.
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);
