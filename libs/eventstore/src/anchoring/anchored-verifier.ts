import type { KeyObject } from 'node:crypto';
import type { RecordedEvent } from '../envelope';
import { type ChainBreak, type ChainPoint, type ChainVerdict, ChainVerifier } from '../hash-chain/chain-verifier';
import type { StoredEvent } from '../hash-chain/stored-event';
import type { RollbackAcceptance } from './rollback-acceptance';
import { checkpointSignatureValid, type SignedCheckpoint } from './head-checkpoint';

export interface AnchoredVerdict extends ChainVerdict {
  /** The newest genuine checkpoint the log was checked against; absent when there was none. */
  readonly anchor?: { readonly position: number; readonly at: string };
  /**
   * Events after the anchor: only the unkeyed chain protects them, so a
   * rewrite or a cut there is invisible until the next checkpoint is signed.
   */
  readonly unanchored: number;
  readonly checkpoints: number;
  /** Accepted rollbacks that gave up signed checkpoints (standing-checkpoints.ts); absent when none did. */
  readonly rollbacks?: readonly RollbackAcceptance[];
}

/**
 * The hash chain plus signed head checkpoints. The chain alone catches any
 * edit that leaves later hashes stale; a checkpoint, signed with a key the
 * writer of the store file does not hold, catches what the chain cannot: a
 * rewrite that recomputes every later hash (the event at the checkpoint's
 * position then has another hash) and a cut tail (the log ends before a
 * checkpoint's position). Constant memory in the log's length, like the chain.
 */
export class AnchoredVerifier {
  private readonly chain: ChainVerifier;
  /** Position → hash vouched for by a genuine checkpoint. */
  private readonly vouched = new Map<number, SignedCheckpoint>();
  private newest: SignedCheckpoint | undefined;
  private broken: ChainBreak | undefined;

  /**
   * `publicKey` 'genuine': the checkpoints were verified already, by a
   * verifier of the whole log (a range worker's, parallel-verify.ts).
   * `start`: check one range of the log, after this point; the genesis by default.
   */
  constructor(checkpoints: readonly SignedCheckpoint[], publicKey: KeyObject | 'genuine' | undefined, start?: ChainPoint) {
    this.chain = new ChainVerifier(start);
    if (!publicKey) return;
    for (const checkpoint of [...checkpoints].sort((a, b) => a.position - b.position)) {
      if (publicKey !== 'genuine' && !checkpointSignatureValid(checkpoint, publicKey)) {
        this.broken ??= {
          position: checkpoint.position,
          reason: 'checkpoint-forged',
          detail: `the checkpoint for position ${checkpoint.position} (signed at ${checkpoint.at}) does not verify with the public key`,
        };
        continue;
      }
      const other = this.vouched.get(checkpoint.position);
      if (other && other.hash !== checkpoint.hash) {
        this.broken ??= {
          position: checkpoint.position,
          reason: 'checkpoint-mismatch',
          detail: `two genuine checkpoints disagree on the hash at position ${checkpoint.position} (${other.at}, ${checkpoint.at}): the log was rewritten between them`,
        };
      }
      this.vouched.set(checkpoint.position, checkpoint);
      this.newest = checkpoint;
    }
  }

  /** Returns false once the log is found broken; further events are ignored. */
  check(event: RecordedEvent | StoredEvent): boolean {
    if (this.broken) return false;
    if (!this.chain.check(event)) return false;
    const checkpoint = this.vouched.get(event.position);
    if (checkpoint && checkpoint.hash !== event.hash) {
      this.broken = {
        position: event.position,
        eventId: event.id,
        reason: 'checkpoint-mismatch',
        detail: `the checkpoint signed at ${checkpoint.at} vouches for another hash at this position: history at or before it was rewritten`,
      };
      return false;
    }
    return true;
  }

  verdict(): AnchoredVerdict {
    return this.conclude(this.eventVerdict());
  }

  /**
   * What the events checked so far show: the chain's verdict, broken also by
   * a forged checkpoint or an event a checkpoint disagrees with. Not yet
   * whether the log ends too soon: a range's verdict (parallel-verify.ts).
   */
  eventVerdict(): ChainVerdict {
    const chain = this.chain.verdict();
    const firstBreak = this.broken ?? chain.firstBreak;
    return { ...chain, ok: firstBreak === undefined, firstBreak };
  }

  /** The verdict on the whole log from what its events show (this verifier's, or ranges' joined): adds the anchor and a cut tail. */
  conclude(events: ChainVerdict): AnchoredVerdict {
    const anchor = this.newest && this.newest.position <= events.headPosition ? this.newest : undefined;
    const extra = {
      anchor: anchor ? { position: anchor.position, at: anchor.at } : undefined,
      unanchored: events.headPosition - (anchor?.position ?? 0),
      checkpoints: this.vouched.size,
    };
    const firstBreak = events.firstBreak ?? this.truncation(events.headPosition);
    return { ...events, ...extra, ok: firstBreak === undefined, firstBreak };
  }

  private truncation(head: number): ChainBreak | undefined {
    if (!this.newest || this.newest.position <= head) return undefined;
    return {
      position: head + 1,
      reason: 'truncated',
      detail: `the log ends at position ${head}, but the checkpoint signed at ${this.newest.at} vouches for position ${this.newest.position}: positions ${head + 1}–${this.newest.position} are missing, cut from the tail`,
    };
  }
}
