import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StoreLocation } from '../store-location';
import { type AnchoredVerdict, AnchoredVerifier } from './anchored-verifier';
import type { SignedCheckpoint } from './head-checkpoint';
import { joinRanges, type RangeOutcome } from './join-ranges';

/** What one worker checks: positions (after, upto] of the store at `location`. */
export interface RangeJob {
  readonly location: StoreLocation;
  readonly after: number;
  readonly upto: number;
  readonly batch: number;
  /** The checkpoints inside the range, found genuine before the workers started; none without a key. */
  readonly checkpoints: readonly SignedCheckpoint[];
}

/** What a range worker posts: progress (events checked so far), then its outcome or its error. */
export type RangeMessage = { readonly seen: number } | { readonly outcome: RangeOutcome } | { readonly error: string };

/**
 * Below this many events a thread, a worker's start-up (a thread, a module
 * load, a connection: tens of milliseconds) costs more than it saves.
 */
export const MIN_EVENTS_PER_THREAD = 25_000;

/**
 * Threads to verify a log of `size` (events, or what `perThread` counts)
 * with: `requested` (0 or absent: one per core), fewer on a small log, at
 * least 1 (no worker).
 */
export function verifyThreadCount(requested: number | undefined, size: number, perThread = MIN_EVENTS_PER_THREAD): number {
  const wanted = requested !== undefined && requested > 0 ? requested : availableParallelism();
  return Math.max(1, Math.min(wanted, Math.floor(size / perThread)));
}

/**
 * A worker's young generation (V8's new space), in MiB: a batch of 5,000
 * rows read as strings, and their hashed texts, are still alive at most
 * scavenges in the default 48 MiB, so each is copied and promoted, and the
 * collector took about a third of a worker's CPU. At 128 MiB they die
 * young: 12–13 µs of CPU an event instead of 19–20 over the bench's 1M log.
 */
const WORKER_YOUNG_GENERATION_MB = 128;

export interface ParallelVerifyOptions {
  readonly threads: number;
  readonly batch: number;
  /** Hears the events checked so far, over all threads. */
  readonly onProgress?: (seen: number) => void;
}

/**
 * The whole log up to `head`, cut into `threads` ranges of equal length,
 * each checked in a worker thread over its own connection to the store;
 * joinRanges gives the verdict a single walk would, first break included.
 * Once a range breaks, the ranges after it no longer matter and stop.
 */
export async function verifyInWorkers(
  location: StoreLocation,
  head: number,
  checkpoints: readonly SignedCheckpoint[],
  publicKey: KeyObject | undefined,
  options: ParallelVerifyOptions,
): Promise<AnchoredVerdict> {
  const whole = new AnchoredVerifier(checkpoints, publicKey);
  if (whole.eventVerdict().firstBreak) return whole.verdict();
  const jobs = splitLog(head, options.threads).map(({ after, upto }): RangeJob => ({
    location,
    after,
    upto,
    batch: options.batch,
    checkpoints: genuineCheckpoints(checkpoints, publicKey).filter((checkpoint) => checkpoint.position > after && checkpoint.position <= upto),
  }));
  return joinRanges(await runRangeWorkers(compiledWorkerFile(__dirname, 'range-worker'), jobs, options.onProgress), whole);
}

/**
 * Starts one worker thread per job (`workerFile` posts RangeMessages) and
 * gives their outcomes in order, up to the first that broke or failed: the
 * ranges after it no longer matter, and are stopped.
 */
export async function runRangeWorkers(workerFile: string, jobs: readonly unknown[], onProgress?: (seen: number) => void): Promise<RangeOutcome[]> {
  const seen = jobs.map(() => 0);
  const workers = jobs.map((job) => new Worker(workerFile, { workerData: job, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } }));
  const stopped = new Set<Worker>();
  const outcomes = workers.map((worker, index) =>
    rangeOutcome(worker, stopped, (count) => {
      seen[index] = count;
      onProgress?.(seen.reduce((sum, each) => sum + each, 0));
    }).then((outcome) => {
      if (outcome && ends(outcome)) {
        for (const later of workers.slice(index + 1)) {
          stopped.add(later);
          void later.terminate();
        }
      }
      return outcome;
    }),
  );
  try {
    return await settledInOrder(outcomes);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

const ends = (outcome: RangeOutcome): boolean => outcome.verdict.firstBreak !== undefined || outcome.failure !== undefined;

/** What a range worker checks against (as 'genuine'): the checkpoints when a key verified them, else none, as the whole log's verifier ignores them then. */
export const genuineCheckpoints = (checkpoints: readonly SignedCheckpoint[], publicKey: KeyObject | undefined): readonly SignedCheckpoint[] => (publicKey ? checkpoints : []);

/** (0, head] in `count` consecutive ranges of equal length (the last takes the remainder). */
export function splitLog(head: number, count: number): Array<{ after: number; upto: number }> {
  return Array.from({ length: count }, (_, index) => ({ after: Math.floor((head * index) / count), upto: Math.floor((head * (index + 1)) / count) }));
}

/**
 * The outcomes in order, up to and including the first broken range: the
 * ranges after it were stopped, and the join does not read them.
 */
async function settledInOrder(outcomes: ReadonlyArray<Promise<RangeOutcome | undefined>>): Promise<RangeOutcome[]> {
  const joined: RangeOutcome[] = [];
  for (const pending of outcomes) {
    const outcome = await pending;
    if (outcome === undefined) break;
    joined.push(outcome);
    if (ends(outcome)) break;
  }
  return joined;
}

/** The worker's outcome; undefined when it was stopped first (an earlier range broke). Any other end without one fails the verify. */
function rangeOutcome(worker: Worker, stopped: ReadonlySet<Worker>, onSeen: (seen: number) => void): Promise<RangeOutcome | undefined> {
  return new Promise((resolvePromise, reject) => {
    worker.on('message', (message: RangeMessage) => {
      if ('seen' in message) onSeen(message.seen);
      else if ('outcome' in message) resolvePromise(message.outcome);
      else reject(new Error(`audit verify: a range worker failed: ${message.error}`));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (stopped.has(worker)) resolvePromise(undefined);
      else reject(new Error(`audit verify: a range worker exited (code ${code}) before its outcome`));
    });
  });
}

/**
 * The compiled worker `name`.js beside the calling module (its __dirname);
 * run from the TypeScript sources (Jest), the one `npm run build` put in
 * dist/, since a worker thread does not go through Jest's transform.
 */
export function compiledWorkerFile(directory: string, name: string): string {
  const beside = join(directory, `${name}.js`);
  if (existsSync(beside)) return beside;
  const root = resolve(__dirname, '../../../..');
  const built = join(root, 'dist', relative(root, directory), `${name}.js`);
  if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" (audit verify's worker threads run compiled code)`);
  return built;
}
