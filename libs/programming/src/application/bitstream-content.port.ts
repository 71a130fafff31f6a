import type { Readable } from 'node:stream';

/** Where the ledger keeps image bytes, addressed by their sha256. */
export interface BitstreamContentStore {
  /** Stores the bytes under their sha256; `created` is false when they were there already. */
  put(sha256: string, bytes: Buffer): Promise<{ readonly created: boolean }>;
  /** Removes what a refused registration stored. */
  remove(sha256: string): Promise<void>;
  /** The bytes, or null when not stored. */
  open(sha256: string): Promise<{ readonly stream: Readable; readonly sizeBytes: number } | null>;
}

/** Nest token of the BitstreamContentStore. */
export const BITSTREAM_CONTENT_STORE = Symbol('BITSTREAM_CONTENT_STORE');
