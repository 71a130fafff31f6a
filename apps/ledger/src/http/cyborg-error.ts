import type { LedgerError } from '@ledger/kernel';

/**
 * Cyborg's error body, `{"error_message": "…"}`, without Cyborg's JSON
 * inside the string (CYBORG-V2.md §10); the stable code travels in the
 * `X-Error-Code` header. The same text also goes in `message`: openstacksdk
 * (under `openstack accelerator`) shows a server's reason only from a
 * `message` or `faultstring` member, so without it users would read a bare
 * "403 Forbidden".
 */
export const cyborgErrorOf = (error: LedgerError): { error_message: string; message: string } => ({
  error_message: error.message,
  message: error.message,
});

/** Cyborg's collections: a path that starts with one of them but no version is served as `/v2/...`, as Cyborg does. */
const UNVERSIONED = /^\/(device_profiles|accelerator_requests|devices|deployables|attributes)(?=[/?]|$)/;

/**
 * Cyborg routes a path without a version to the default one (`root.py`):
 * clients whose endpoint lacks `/v2` — the `openstack` CLI with a token
 * does this after reading `/` — call `/device_profiles`. Used as Fastify's
 * `rewriteUrl`.
 */
export const withDefaultVersion = (url: string): string => (UNVERSIONED.test(url) ? `/v2${url}` : url);

/** Cyborg's v2 API lives under /v2; everything else is the native API. */
export const isCyborgPath = (url: string): boolean => url === '/v2' || url.startsWith('/v2/') || url.startsWith('/v2?');
