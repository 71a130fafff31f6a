import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parentPort, workerData } from 'node:worker_threads';
import { AnchoredVerifier, checkRange, type RangeMessage, RangeReadFailure, type RecordedEvent } from '@ledger/eventstore';
import { exportEventBatches } from './export-lines';
import type { ExportRangeJob } from './export-verify';

/** The events of bytes [start, end) of the export, in batches; a line that is not an event ends them (its events before it first). */
function rangeBatches(job: ExportRangeJob): AsyncIterable<RecordedEvent[]> {
  if (job.end <= job.start) return exportEventBatches([], job.batch, () => new Error('no lines'));
  const lines = createInterface({ input: createReadStream(job.file, { encoding: 'utf8', start: job.start, end: job.end - 1 }), crlfDelay: Infinity });
  return exportEventBatches(lines, job.batch, (line, problem) => new RangeReadFailure(line, problem));
}

/** A worker thread of export-verify.ts: checks one byte range of an export and posts its progress, then its outcome or its error. */
async function run(job: ExportRangeJob): Promise<void> {
  const post = (message: RangeMessage) => parentPort!.postMessage(message);
  const outcome = await checkRange(rangeBatches(job), (start) => new AnchoredVerifier(job.checkpoints, 'genuine', start), (seen) => post({ seen }));
  post({ outcome });
}

run(workerData as ExportRangeJob).catch((error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies RangeMessage));
