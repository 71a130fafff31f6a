import type { KeyObject } from 'node:crypto';
import type { RecordedEvent } from '../envelope';
import type { EventStore } from '../event-store.port';
import type { StoredEvent } from '../hash-chain/stored-event';
import { type AnchoredVerdict, AnchoredVerifier } from './anchored-verifier';
import type { SignedCheckpoint } from './head-checkpoint';
import { verifiableBatches } from './log-batches';
import { verifyInWorkers, verifyThreadCount } from './parallel-verify';

const BATCH = 5000;

/**
 * Walks batches of the log through an anchored verifier, stopping at the
 * first break; `onBatch` hears how many events were checked so far.
 */
export async function verifyBatches(
  batches: AsyncIterable<ReadonlyArray<RecordedEvent | StoredEvent>>,
  verifier: AnchoredVerifier,
  onBatch: (seen: number) => void = () => undefined,
): Promise<AnchoredVerdict> {
  let seen = 0;
  outer: for await (const batch of batches) {
    for (const event of batch) {
      seen++;
      if (!verifier.check(event)) break outer;
    }
    onBatch(seen);
  }
  return verifier.verdict();
}

export interface VerifyStoreLogOptions {
  /** Worker threads (0 or absent: one per core); a small log, or a store no other thread can open, stays on this one. */
  readonly threads?: number;
  /** The head to verify up to (default: the store's head now). */
  readonly head?: number;
  /** Hears the events checked so far. */
  readonly onProgress?: (seen: number) => void;
}

/** The live store's whole chain, up to its head, against these signed checkpoints (`ledgerctl audit verify`, GET /api/v1/audit/verify). */
export async function verifyStoreLog(
  store: EventStore,
  checkpoints: readonly SignedCheckpoint[],
  publicKey: KeyObject | undefined,
  options: VerifyStoreLogOptions = {},
): Promise<AnchoredVerdict> {
  const head = options.head ?? (await store.headPosition());
  const location = store.location?.();
  const threads = verifyThreadCount(options.threads, head);
  if (location && threads > 1) return verifyInWorkers(location, head, checkpoints, publicKey, { threads, batch: BATCH, onProgress: options.onProgress });
  return verifyBatches(verifiableBatches(store, head, BATCH), new AnchoredVerifier(checkpoints, publicKey), options.onProgress);
}
