import { BitstreamInvalidError, type BitstreamMetadata } from '@ledger/programming';
import type { RegisterBitstreamBody } from './bitstreams.request.dto';

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

export function integerAt(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new BitstreamInvalidError(path, 'must be an integer');
  return value;
}

/** The signature and metadata of a registration, whichever way the bytes come. */
export function metadataOf(body: RegisterBitstreamBody): BitstreamMetadata {
  return {
    signature: body.signature === undefined || body.signature === null ? null : base64At(body.signature, 'signature'),
    ...(body.keyId === undefined ? {} : { keyId: textAt(body.keyId, 'keyId').toLowerCase() }),
    functionId: textAt(body.functionId, 'functionId'),
    interfaceId: textAt(body.interfaceId, 'interfaceId'),
    vendor: textAt(body.vendor, 'vendor'),
    name: body.name === undefined || body.name === null ? null : textAt(body.name, 'name'),
  };
}
