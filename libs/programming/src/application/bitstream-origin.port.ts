/** What a read of an origin URL found: the bytes (at most `maxBytes`), their sha256 and count, and whether more followed. */
export interface OriginBytes {
  readonly bytes: Buffer;
  readonly sha256: string;
  readonly sizeBytes: number;
  /** The URL had more than `maxBytes`; the read stopped there, so `sha256` is of a prefix. */
  readonly overflowed: boolean;
}

/** Reads an image from an image store once, to check it; the ledger keeps nothing of it. */
export interface BitstreamOriginReader {
  /** Throws BitstreamOriginUnavailableError when the URL cannot be read (unreachable, an error status, past the timeout). */
  read(url: string, limits: { readonly maxBytes: number; readonly timeoutMs: number }): Promise<OriginBytes>;
}

/** Nest token of the BitstreamOriginReader. */
export const BITSTREAM_ORIGIN_READER = Symbol('BITSTREAM_ORIGIN_READER');
