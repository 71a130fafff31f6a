import type { RecordedEvent } from '../envelope';
import { type ChainPoint, type ChainVerdict, ChainVerifier, GENESIS_POINT } from '../hash-chain/chain-verifier';
import type { StoredEvent } from '../hash-chain/stored-event';
import type { AnchoredVerdict, AnchoredVerifier } from './anchored-verifier';

/**
 * One range of the log checked on its own: started from its first event's
 * own claim (`prevHash` at `position - 1`), which the join then holds
 * against the range before.
 */
export interface RangeOutcome {
  /** The range's first event; absent when the range held none. */
  readonly first?: RecordedEvent | StoredEvent;
  /** AnchoredVerifier.eventVerdict() of the range: what its events show. */
  readonly verdict: ChainVerdict;
  /**
   * Reading stopped at the range's `line`-th line, which is not an event (a
   * damaged export): the verdict covers the events before it, and the
   * caller raises `problem` when no break comes first.
   */
  readonly failure?: { readonly line: number; readonly problem: string };
}

/** Where a range's check started: just before its first event, as that event claims. */
export const claimedStart = (first: RecordedEvent | StoredEvent): ChainPoint => ({ position: first.position - 1, hash: first.prevHash });

/**
 * Joins ranges' outcomes, in log order, into the verdict a single walk of
 * the whole log gives. Range k's check is the walk's own from its first
 * event on when the walk, after range k-1, stands where that event claims
 * to follow (position - 1, prevHash). When it does not, the walk breaks at
 * that very event: its position or its prevHash does not follow, which a
 * ChainVerifier placed where the walk stands reports with the walk's own
 * reason and words. The first broken range ends the join.
 */
export function joinRanges(outcomes: readonly RangeOutcome[], whole: AnchoredVerifier): AnchoredVerdict {
  const before = whole.eventVerdict();
  // A forged or disagreeing checkpoint breaks the log before any event.
  if (before.firstBreak) return whole.conclude(before);
  let checked = 0;
  let at: ChainPoint = GENESIS_POINT;
  for (const { first, verdict } of outcomes) {
    if (!first) continue;
    const start = claimedStart(first);
    if (start.position !== at.position || start.hash !== at.hash) {
      const walk = new ChainVerifier(at);
      walk.check(first);
      return whole.conclude({ ...walk.verdict(), checked });
    }
    checked += verdict.checked;
    at = { position: verdict.headPosition, hash: verdict.headHash };
    if (verdict.firstBreak) return whole.conclude({ ...verdict, checked });
  }
  return whole.conclude({ ok: true, checked, headPosition: at.position, headHash: at.hash, firstBreak: undefined });
}
