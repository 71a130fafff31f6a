import type { ExpectedVersion } from '../../expected-version';

/** An event with everything the writer fixes before the store places it. */
export interface PreparedEvent {
  readonly id: string;
  /** True when the caller chose the id: only such ids can already be recorded (the store's own UUIDv7s are fresh). */
  readonly idFromCaller: boolean;
  readonly type: string;
  readonly recordedAt: string;
  /**
   * Data and metadata as JSON text, taken when the append was made: what
   * every reader gets back. Stores write this text, never the caller's
   * objects, which the caller may change before the group commit flushes.
   */
  readonly dataJson: string;
  readonly metadataJson: string;
  /** `contentHash` of the fields above; the store chains it to its place. */
  readonly contentHash: string;
}

/** A validated append waiting for its turn in a commit. */
export interface PreparedAppend {
  readonly stream: string;
  readonly expected: ExpectedVersion;
  readonly events: readonly PreparedEvent[];
}

/** Appends that commit together or not at all: one for `append`, one per stream for `appendMany`. */
export type AtomicAppend = readonly PreparedAppend[];
