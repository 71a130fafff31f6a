import type { KeyObject } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import {
  type AnchoredVerdict,
  AnchoredVerifier,
  compiledWorkerFile,
  genuineCheckpoints,
  joinRanges,
  runRangeWorkers,
  type SignedCheckpoint,
  type VerifyStoreLogOptions,
  verifyThreadCount,
} from '@ledger/eventstore';
import { CliError } from './cli-error';

/** What one worker checks: bytes [start, end) of the export, whole lines. */
export interface ExportRangeJob {
  readonly file: string;
  readonly start: number;
  readonly end: number;
  readonly batch: number;
  /** Found genuine before the workers started; none without a key. */
  readonly checkpoints: readonly SignedCheckpoint[];
}

/** About 25,000 events' worth of export (MIN_EVENTS_PER_THREAD): less a thread, and a worker's start-up costs more than it saves. */
const MIN_BYTES_PER_THREAD = 16 * 1024 * 1024;
const BATCH = 5000;

/**
 * `audit verify --file` on worker threads: the export cut into byte ranges
 * at line ends, each read and checked by a worker, joined in order
 * (joinRanges), so the verdict is a single walk's. A damaged line is the
 * single walk's error too, with its line number in the whole file, unless
 * a break comes before it. Undefined when the file is too small to share
 * out (the caller walks it on this thread).
 */
export async function verifyExportInWorkers(
  file: string,
  checkpoints: readonly SignedCheckpoint[],
  publicKey: KeyObject | undefined,
  options: VerifyStoreLogOptions,
): Promise<AnchoredVerdict | undefined> {
  const size = fileSize(file);
  const threads = verifyThreadCount(options.threads, size, MIN_BYTES_PER_THREAD);
  return threads < 2 ? undefined : verifyExportRanges(file, size, checkpoints, publicKey, threads, options.onProgress);
}

/** The export in `threads` ranges, one worker each, whatever its size. */
export async function verifyExportRanges(
  file: string,
  size: number,
  checkpoints: readonly SignedCheckpoint[],
  publicKey: KeyObject | undefined,
  threads: number,
  onProgress?: (seen: number) => void,
): Promise<AnchoredVerdict> {
  const whole = new AnchoredVerifier(checkpoints, publicKey);
  if (whole.eventVerdict().firstBreak) return whole.verdict();
  const cuts = lineCuts(file, size, threads);
  const jobs = cuts.slice(0, -1).map((start, index): ExportRangeJob => ({ file, start, end: cuts[index + 1], batch: BATCH, checkpoints: genuineCheckpoints(checkpoints, publicKey) }));
  const outcomes = await runRangeWorkers(compiledWorkerFile(__dirname, 'export-range-worker'), jobs, onProgress);
  const verdict = joinRanges(outcomes, whole);
  const failure = outcomes[outcomes.length - 1]?.failure;
  if (failure && (verdict.firstBreak === undefined || verdict.firstBreak.reason === 'truncated')) {
    throw new CliError(`${file}:${linesBefore(file, jobs[outcomes.length - 1].start) + failure.line} ${failure.problem}`);
  }
  return verdict;
}

export function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`${file} does not exist`, 2);
    throw error;
  }
}

/** 0, the first line start at or after each even share of the file, and its size: `count` ranges of whole lines. */
export function lineCuts(file: string, size: number, count: number): number[] {
  const cuts = [0];
  const descriptor = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    for (let index = 1; index < count; index++) {
      let at = Math.max(cuts[cuts.length - 1], Math.floor((size * index) / count));
      // A cut just after a line feed, so no line (nor a CRLF) is split.
      for (;;) {
        if (at === 0 || at >= size) break;
        const read = readSync(descriptor, buffer, 0, buffer.length, at - 1);
        const newline = buffer.subarray(0, read).indexOf(0x0a);
        if (newline < 0) {
          at += read;
          continue;
        }
        at += newline;
        break;
      }
      cuts.push(Math.min(at, size));
    }
  } finally {
    closeSync(descriptor);
  }
  cuts.push(size);
  return cuts;
}

/** Lines before byte `end`, counted as readline counts them (LF, CRLF, or a lone CR ends a line): only for an error's line number. */
function linesBefore(file: string, end: number): number {
  let lines = 0;
  const descriptor = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1024 * 1024);
    let previous = -1;
    for (let at = 0; at < end; ) {
      const read = readSync(descriptor, buffer, 0, Math.min(buffer.length, end - at), at);
      if (read === 0) break;
      for (let index = 0; index < read; index++) {
        const byte = buffer[index];
        if (byte === 0x0a) lines += previous === 0x0d ? 0 : 1;
        else if (byte === 0x0d) lines++;
        previous = byte;
      }
      at += read;
    }
  } finally {
    closeSync(descriptor);
  }
  return lines;
}
