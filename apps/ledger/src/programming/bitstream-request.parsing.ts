import { BitstreamInvalidError } from '@ledger/programming';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64: anything Buffer.from would silently skip or truncate is refused, naming the member. */
export function base64At(value: unknown, path: string): Buffer {
  if (typeof value !== 'string' || value.length % 4 !== 0 || !BASE64.test(value)) throw new BitstreamInvalidError(path, 'must be base64');
  return Buffer.from(value, 'base64');
}

export function textAt(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new BitstreamInvalidError(path, 'must be a string');
  return value;
}
