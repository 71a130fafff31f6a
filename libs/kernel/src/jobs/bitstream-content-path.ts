/**
 * Where the ledger serves a registered bitstream's bytes (`GET`, admin or
 * agent token). Workflows name it in program jobs; the agent fetches it
 * from its own ledger with its own credential, so a job never carries the
 * ledger's address or a token.
 */
export const bitstreamContentPath = (bitstreamId: string): string => `/api/v1/bitstreams/${bitstreamId}/content`;
