import { BitstreamOriginInvalidError, BitstreamOriginMismatchError } from './programming.errors';
import type { BitstreamOrigin } from './programming.events';

/** Long enough for an image store's signed URL; an event is no place for more. */
const MAX_URL_LENGTH = 2048;

/**
 * An origin URL as the ledger records it and agents fetch it: http or
 * https, and without user:password, because the URL is recorded in events
 * and handed to every agent that programs the image.
 */
export function originUrlOf(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new BitstreamOriginInvalidError('must be a string');
  if (value.length > MAX_URL_LENGTH) throw new BitstreamOriginInvalidError(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BitstreamOriginInvalidError('must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BitstreamOriginInvalidError(`must be http or https, not ${url.protocol.replace(/:$/, '')}`);
  if (url.username !== '' || url.password !== '') throw new BitstreamOriginInvalidError('must not carry credentials (user:password@)');
  return url.href;
}

/** A URL as messages and facts show it: without its query, which may carry an image store's signature. */
export const shownOriginUrl = (url: string): string => url.split('?')[0];

/**
 * The bytes read from `url` must be the declared ones, size first (a short
 * read says more than its hash). `overflowed`: the read stopped past the
 * declared size, so only "more than" is known.
 */
export function checkOriginBytes(
  url: string,
  declared: { readonly sha256: string; readonly sizeBytes: number },
  actual: { readonly sha256: string; readonly sizeBytes: number; readonly overflowed?: boolean },
): void {
  if (actual.overflowed) throw new BitstreamOriginMismatchError(shownOriginUrl(url), 'sizeBytes', declared.sizeBytes, `more than ${declared.sizeBytes}`);
  if (actual.sizeBytes !== declared.sizeBytes) throw new BitstreamOriginMismatchError(shownOriginUrl(url), 'sizeBytes', declared.sizeBytes, actual.sizeBytes);
  if (actual.sha256 !== declared.sha256.toLowerCase()) throw new BitstreamOriginMismatchError(shownOriginUrl(url), 'sha256', declared.sha256, actual.sha256);
}

/** Where a registered image's bytes are: its origin URL, or the ledger's store by sha256. */
export const bitstreamOriginOf = (sha256: string, originUrl: string | null): BitstreamOrigin =>
  originUrl === null ? { kind: 'stored', ref: `sha256:${sha256}` } : { kind: 'url', ref: originUrlOf(originUrl) };
