import { outboundWrapper } from './outbound-wrapper';

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

/** What `sendWithAccess` sends: the service's name (for tracing), the method and the path under its base URL. */
export interface ServiceRequest {
  readonly service: string;
  readonly method: string;
  /** Appended to the access's URL: `/os-server-external-events`. */
  readonly path: string;
}

/**
 * Sends a request through `access`: `send` gets the full URL and the headers
 * to send (`X-Auth-Token` when the access has a token, the trace context
 * when the ledger traces: outbound-wrapper.ts). On a 401, tells the access
 * and, when a fresh token can come (the ledger's Keystone token was revoked
 * or expired early), sends it once more with that token. Whatever `url()`,
 * `token()` or `send` throws is the caller's to classify.
 */
export async function sendWithAccess(
  access: ServiceAccess,
  request: ServiceRequest,
  send: (url: string, headers: Readonly<Record<string, string>>) => Promise<Response>,
): Promise<Response> {
  const url = `${await access.url()}${request.path}`;
  const sendWith = (token: string | undefined): Promise<Response> => {
    const auth: Record<string, string> = token === undefined ? {} : { 'x-auth-token': token };
    const wrapper = outboundWrapper();
    if (!wrapper) return send(url, auth);
    return wrapper({ service: request.service, method: request.method, url }, (headers) => send(url, { ...headers, ...auth }));
  };
  const token = await access.token();
  const response = await sendWith(token);
  if (response.status !== 401 || token === undefined || !access.refused(token)) return response;
  await response.body?.cancel().catch(() => undefined);
  return sendWith(await access.token());
}
