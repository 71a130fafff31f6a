import type { AcceleratorRequestBound } from '../../domain/nova-notice';

/**
 * Nova's side of a finished bind: `POST /os-server-external-events` at
 * compute microversion 2.82. Resolves once Nova accepted the post (a 207
 * whose events Nova could not route yet counts: Nova then polls). Throws
 * `ReactorUnavailableError` when Nova is down or refuses our credentials,
 * `ReactorRejectedError` when it refuses the post itself.
 */
export interface NovaEvents {
  acceleratorRequestsBound(
    events: readonly AcceleratorRequestBound[],
    /** `key`: the same for every redelivery of one notice (the ledger event's id), so Nova's log shows repeats as one request. */
    options: { readonly key: string; readonly signal?: AbortSignal },
  ): Promise<void>;
}

export const NOVA_EVENTS = Symbol('NOVA_EVENTS');
