import { NAMESPACE_LEDGER, uuidV5 } from '@ledger/kernel';

/**
 * A bitstream's id is derived from its content, so registering the same
 * bytes twice lands on one stream and is refused there exactly (no index to
 * race on); the id stays stable across exports and rebuilds.
 */
export const bitstreamIdOf = (sha256: string): string => uuidV5(NAMESPACE_LEDGER, `bitstream:${sha256}`);

export const bitstreamStream = (bitstreamId: string): string => `bitstream-${bitstreamId.toLowerCase()}`;

export const BITSTREAM_STREAM_CATEGORY = 'bitstream';

/** The one stream of operator-trusted signing keys: few, rarely changed, and checked together. */
export const SIGNING_KEYS_STREAM = 'signing-keys';

export const SIGNING_KEYS_STREAM_CATEGORY = 'signing';
