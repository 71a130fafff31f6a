import { isSignedCheckpoint, type RecordedEvent, type SignedCheckpoint } from '@ledger/eventstore';

/** A line of an export's header: a signed checkpoint, told apart from an event by its one key. */
export interface CheckpointLine {
  readonly checkpoint: SignedCheckpoint;
}

export const isCheckpointLine = (value: unknown): value is CheckpointLine =>
  typeof value === 'object' && value !== null && 'checkpoint' in value && isSignedCheckpoint((value as CheckpointLine).checkpoint);

/** What one line of an export holds: an event, nothing to check (a blank line, a checkpoint), or what is wrong with it. */
export type ExportLine = { readonly event: RecordedEvent } | { readonly skip: true } | { readonly problem: string };

/** Reads one line of an export; the file source and the verify workers (export-range-worker.ts) read lines alike. */
export function readExportLine(line: string): ExportLine {
  if (line.trim() === '') return { skip: true };
  const parsed = parseJson(line);
  if (isCheckpointLine(parsed)) return { skip: true };
  if (parsed === undefined) return { problem: 'is not JSON: the export is damaged' };
  const event = parsed as RecordedEvent;
  if (typeof event?.position !== 'number' || typeof event.hash !== 'string' || typeof event.stream !== 'string') {
    return { problem: 'is not a recorded event (position, stream, hash missing)' };
  }
  return { event };
}

export function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
