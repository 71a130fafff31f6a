import type { LedgerError } from '@ledger/kernel';

/**
 * Cyborg's error body, which Nova and the `openstack accelerator` client
 * read: `{"error_message": "…"}`. We keep the shape but not Cyborg's JSON
 * inside the string (CYBORG-V2.md §10); the stable code travels in the
 * `X-Error-Code` header.
 */
export const cyborgErrorOf = (error: LedgerError): { error_message: string } => ({ error_message: error.message });

/** Cyborg's v2 API lives under /v2; everything else is the native API. */
export const isCyborgPath = (url: string): boolean => url === '/v2' || url.startsWith('/v2/') || url.startsWith('/v2?');
