import { parentPort, workerData } from 'node:worker_threads';
import { openEventStore } from '../open-event-store';
import { AnchoredVerifier } from './anchored-verifier';
import { checkRange } from './check-range';
import { verifiableBatches } from './log-batches';
import type { RangeJob, RangeMessage } from './parallel-verify';

/** Up to 64 GiB of the log mapped: address space, not memory; pages come from the page cache as read. */
const MAPPED_BYTES = 64 * 2 ** 30;

/**
 * A worker thread of parallel-verify.ts: opens the store itself (its own
 * connection, so reading runs in parallel too), checks positions (after,
 * upto], and posts its progress, then its outcome or its error.
 */
async function run(job: RangeJob): Promise<void> {
  const post = (message: RangeMessage) => parentPort!.postMessage(message);
  // A range is read once, front to back: mapped, SQLite hands rows over without a read call per page.
  const store = await openEventStore(job.location.kind === 'sqlite' ? { ...job.location, mappedBytes: MAPPED_BYTES } : job.location);
  try {
    const batches = verifiableBatches(store, job.upto, job.batch, job.after);
    const outcome = await checkRange(batches, (start) => new AnchoredVerifier(job.checkpoints, 'genuine', start), (seen) => post({ seen }));
    post({ outcome });
  } finally {
    await store.close();
  }
}

run(workerData as RangeJob).catch((error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies RangeMessage));
