import type { RecordedEvent } from '../envelope';
import { chainHash, contentHash, GENESIS_HASH } from './hash-chain';
import { storedContentHash } from './stored-content-hash';
import { decodeStoredEvent, isStoredEvent, type StoredEvent } from './stored-event';

export type ChainBreakReason =
  | 'content-changed'
  | 'predecessor-mismatch'
  | 'position-out-of-order'
  | 'position-gap'
  /** The event's hash differs from the one a signed checkpoint vouches for: history was rewritten. */
  | 'checkpoint-mismatch'
  /** A signed checkpoint vouches for a position past the end of the log: the tail was cut. */
  | 'truncated'
  /** A checkpoint's signature does not verify with the public key: it was forged or altered. */
  | 'checkpoint-forged';

export interface ChainBreak {
  readonly position: number;
  /** The event where the chain broke; absent when the break is the end of the log or a checkpoint. */
  readonly eventId?: string;
  readonly reason: ChainBreakReason;
  readonly detail: string;
}

export interface ChainVerdict {
  readonly ok: boolean;
  readonly checked: number;
  /** Position and hash of the last verified event: an anchor to compare with a published one. */
  readonly headPosition: number;
  readonly headHash: string;
  readonly firstBreak?: ChainBreak;
}

/** A place in the chain: an event's position and hash (position 0 and GENESIS_HASH before the first). */
export interface ChainPoint {
  readonly position: number;
  readonly hash: string;
}

export const GENESIS_POINT: ChainPoint = { position: 0, hash: GENESIS_HASH };

/**
 * Checks events in log order, one at a time, so a caller can stream a store
 * or an export through it in constant memory. Stops at the first break.
 * Takes decoded events or stored ones (JSON text undecoded): the verdict is
 * the same for either form of the same log. Starts at the genesis, or after
 * `start` to check one range of the log (parallel-verify.ts).
 */
export class ChainVerifier {
  private previousHash: string;
  private previousPosition: number;
  private count = 0;
  private broken: ChainBreak | undefined;

  constructor(start: ChainPoint = GENESIS_POINT) {
    this.previousHash = start.hash;
    this.previousPosition = start.position;
  }

  /** Returns false once the chain is broken; further events are ignored. */
  check(event: RecordedEvent | StoredEvent): boolean {
    if (this.broken) return false;
    const fail = (reason: ChainBreakReason, detail: string): boolean => {
      this.broken = { position: event.position, eventId: event.id, reason, detail };
      return false;
    };
    if (event.position <= this.previousPosition) {
      return fail('position-out-of-order', `position ${event.position} follows ${this.previousPosition}`);
    }
    if (event.position !== this.previousPosition + 1) {
      return fail('position-gap', `position ${event.position} follows ${this.previousPosition}: an event is missing`);
    }
    if (event.prevHash !== this.previousHash) {
      return fail('predecessor-mismatch', 'prevHash does not match the previous event: an event was deleted, inserted or reordered');
    }
    if (!linksContent(event)) {
      return fail('content-changed', 'hash does not match the event content: the event was altered');
    }
    this.previousHash = event.hash;
    this.previousPosition = event.position;
    this.count++;
    return true;
  }

  verdict(): ChainVerdict {
    return {
      ok: this.broken === undefined,
      checked: this.count,
      headPosition: this.previousPosition,
      headHash: this.previousHash,
      firstBreak: this.broken,
    };
  }
}

const links = (event: RecordedEvent | StoredEvent, content: string): boolean =>
  chainHash(event.prevHash, event.position, event.stream, event.version, content) === event.hash;

/**
 * A stored event is first hashed from its text as stored (no parse); only
 * when that does not link — a row written before stores kept canonical text,
 * or re-written in an equivalent form — is it decoded and canonicalised,
 * which decides. Text that is not JSON was not written by a writer: changed.
 */
function linksContent(event: RecordedEvent | StoredEvent): boolean {
  if (!isStoredEvent(event)) return links(event, contentHash(event));
  const fast = storedContentHash(event);
  if (fast !== undefined && links(event, fast)) return true;
  let decoded: RecordedEvent;
  try {
    decoded = decodeStoredEvent(event);
  } catch {
    return false;
  }
  return links(event, contentHash(decoded));
}
