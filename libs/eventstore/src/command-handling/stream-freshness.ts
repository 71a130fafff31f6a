/**
 * What a process knows, without asking the store, about whether a stream
 * moved: lets a loader skip the read of a cached stream's (empty) tail.
 * Implemented by StreamVersionWatch; a loader without one reads the tail.
 */
export interface StreamFreshness {
  /** True when nothing can have been appended to `stream` since it was at `version`. */
  isCurrent(stream: string, version: number): boolean;
  /** Taken just before reading (or appending to) a stream; handed back to `confirm` with what that found. */
  mark(): number | undefined;
  /** The stream was at `version` when read or appended with `mark`: trusted from now until the stream moves. */
  confirm(stream: string, version: number, mark: number | undefined): void;
}
