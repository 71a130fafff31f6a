import { createHash } from 'node:crypto';

/** The JSON text of each request's body as received, and its digest once asked for. */
const bodies = new WeakMap<object, { text: string; digest?: string }>();

/** Called by the JSON body parser with the exact text it parses. */
export function keepRequestBodyText(request: object, text: string): void {
  bodies.set(request, { text });
}

/**
 * SHA-256 (base64) of the request's body bytes as received, before any
 * parsing: two bodies with one digest are the same text, so they parse,
 * validate and transform alike. Undefined for a request without a JSON body.
 */
export function requestBodyDigest(request: object): string | undefined {
  const body = bodies.get(request);
  if (body === undefined) return undefined;
  body.digest ??= createHash('sha256').update(body.text, 'utf8').digest('base64');
  return body.digest;
}
