import { isRollbackAcceptanceLine, isSignedCheckpoint, type RecordedEvent, type SignedCheckpoint } from '@ledger/eventstore';

/** A line of an export's header: a signed checkpoint, told apart from an event by its one key. */
export interface CheckpointLine {
  readonly checkpoint: SignedCheckpoint;
}

export const isCheckpointLine = (value: unknown): value is CheckpointLine =>
  typeof value === 'object' && value !== null && 'checkpoint' in value && isSignedCheckpoint((value as CheckpointLine).checkpoint);

/** A line of an export's header: a signed checkpoint or an accepted rollback (`{"rollbackAccepted": …}`). */
export const isHeaderLine = (value: unknown): boolean => isCheckpointLine(value) || isRollbackAcceptanceLine(value);

/** What one line of an export holds: an event, nothing to check (a blank line, a header line), or what is wrong with it. */
export type ExportLine = { readonly event: RecordedEvent } | { readonly skip: true } | { readonly problem: string };

/** Reads one line of an export; the file source and the verify workers (export-range-worker.ts) read lines alike. */
export function readExportLine(line: string): ExportLine {
  if (line.trim() === '') return { skip: true };
  const parsed = parseJson(line);
  if (isHeaderLine(parsed)) return { skip: true };
  if (parsed === undefined) return { problem: 'is not JSON: the export is damaged' };
  const event = parsed as RecordedEvent;
  if (typeof event?.position !== 'number' || typeof event.hash !== 'string' || typeof event.stream !== 'string') {
    return { problem: 'is not a recorded event (position, stream, hash missing)' };
  }
  return { event };
}

/**
 * The events of an export's `lines` in batches of `size`. At a line that is
 * not an event, the events before it come first (so a break among them is
 * found), then `failure(its line number, the problem)` is thrown.
 */
export async function* exportEventBatches(lines: AsyncIterable<string> | Iterable<string>, size: number, failure: (line: number, problem: string) => Error): AsyncIterable<RecordedEvent[]> {
  let batch: RecordedEvent[] = [];
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    const read = readExportLine(line);
    if ('skip' in read) continue;
    if ('problem' in read) {
      if (batch.length > 0) yield batch;
      throw failure(lineNumber, read.problem);
    }
    batch.push(read.event);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

export function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
