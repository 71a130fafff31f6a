import type { RecordedEvent } from '../envelope';
import type { ChainPoint } from '../hash-chain/chain-verifier';
import type { StoredEvent } from '../hash-chain/stored-event';
import type { AnchoredVerifier } from './anchored-verifier';
import { claimedStart, type RangeOutcome } from './join-ranges';

/** Thrown by a range's batches at a line that is not an event (a damaged export): checkRange reports it as the range's failure. */
export class RangeReadFailure extends Error {
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(`line ${line} of the range ${problem}`);
  }
}

/**
 * Checks one range of the log from its first event's own claim (joinRanges
 * holds that claim against the range before), stopping at the first break
 * or at a line that is not an event; `onBatch` hears how many events were
 * checked so far.
 */
export async function checkRange(
  batches: AsyncIterable<ReadonlyArray<RecordedEvent | StoredEvent>>,
  verifierFrom: (start: ChainPoint) => AnchoredVerifier,
  onBatch: (seen: number) => void = () => undefined,
): Promise<RangeOutcome> {
  let first: RecordedEvent | StoredEvent | undefined;
  let verifier: AnchoredVerifier | undefined;
  let seen = 0;
  let failure: RangeOutcome['failure'];
  try {
    outer: for await (const batch of batches) {
      for (const event of batch) {
        if (!verifier) {
          first = event;
          verifier = verifierFrom(claimedStart(event));
        }
        seen++;
        if (!verifier.check(event)) break outer;
      }
      onBatch(seen);
    }
  } catch (error) {
    if (!(error instanceof RangeReadFailure)) throw error;
    failure = { line: error.line, problem: error.problem };
  }
  const verdict = verifier?.eventVerdict() ?? { ok: true, checked: 0, headPosition: 0, headHash: '' };
  return { first, verdict, ...(failure ? { failure } : {}) };
}
