/**
 * What the caller believes about a stream before appending:
 * - a number: the stream's current version (0 = the stream has no events);
 * - `no_stream`: the stream must not exist;
 * - `exists`: the stream must have at least one event;
 * - `any`: no check.
 */
export type ExpectedVersion = number | 'no_stream' | 'exists' | 'any';

/** True when a stream at `actual` (0 = absent) satisfies `expected`. */
export function satisfiesExpected(expected: ExpectedVersion, actual: number): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === 0;
    case 'exists':
      return actual > 0;
    default:
      return actual === expected;
  }
}
