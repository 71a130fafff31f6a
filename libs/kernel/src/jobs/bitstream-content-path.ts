/**
 * Where the ledger serves a registered bitstream's bytes (`GET`, admin or
 * agent token). Workflows name it in program jobs; the agent fetches it
 * from its own ledger with its own credential, so a job never carries the
 * ledger's address or a token.
 */
export const bitstreamContentPath = (bitstreamId: string): string => `/api/v1/bitstreams/${bitstreamId}/content`;

/**
 * Where a program job tells the agent to fetch a registered image: the
 * ledger's content path for stored bytes, the origin URL for an image kept
 * in an image store (the ledger holds none of its bytes). Either way the
 * agent checks the sha256, and it sends its credential only to the ledger.
 */
export const bitstreamImageUrl = (bitstreamId: string, origin: { readonly kind: 'stored' | 'url'; readonly ref: string }): string =>
  origin.kind === 'url' ? origin.ref : bitstreamContentPath(bitstreamId);
