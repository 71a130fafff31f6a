/**
 * Where, and with which token, the ledger calls another service (Placement,
 * Nova). One form holds a fixed URL and token from the settings; the
 * Keystone form (libs/auth) finds the URL in the service catalog and sends
 * the ledger's own Keystone token.
 */
export interface ServiceAccess {
  /** The service's base URL, without a trailing slash. Rejects (a 503 LedgerError) when it cannot be known now. */
  url(): Promise<string>;
  /** The X-Auth-Token to send, if any. Rejects (a 503 LedgerError) when none can be had now. */
  token(): Promise<string | undefined>;
  /** The service answered 401 to this token. True when the next `token()` may be another one, worth one more try. */
  refused(token: string): boolean;
}

/** A URL and token from the settings: a refused token stays what it is. */
export function fixedServiceAccess(url: string, token?: string): ServiceAccess {
  const base = url.replace(/\/+$/, '');
  return { url: async () => base, token: async () => token, refused: () => false };
}

/**
 * Sends a request through `access`: on a 401, tells the access and, when a
 * fresh token can come (the ledger's Keystone token was revoked or expired
 * early), sends it once more with that token. Whatever `url()`, `token()` or
 * `send` throws is the caller's to classify.
 */
export async function sendWithAccess(access: ServiceAccess, send: (url: string, token: string | undefined) => Promise<Response>): Promise<Response> {
  const url = await access.url();
  const token = await access.token();
  const response = await send(url, token);
  if (response.status !== 401 || token === undefined || !access.refused(token)) return response;
  await response.body?.cancel().catch(() => undefined);
  return send(url, await access.token());
}
