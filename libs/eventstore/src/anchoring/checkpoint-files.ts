import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isSignedCheckpoint, type SignedCheckpoint } from './head-checkpoint';

/**
 * Appends one checkpoint as a JSON line. The data dir's `checkpoints.jsonl`
 * and the optional published copy are written the same way; `appendFileSync`
 * opens with O_APPEND, so a copy on an append-only mount keeps working.
 */
export function appendCheckpointLine(file: string, checkpoint: SignedCheckpoint): void {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(checkpoint)}\n`, 'utf8');
}

/**
 * Every well-formed checkpoint line of a file (none when it does not
 * exist). A torn last line (a crash mid-append) is skipped; whether a
 * checkpoint is genuine is the verifier's question, not the reader's.
 */
export function readCheckpointLines(file: string): SignedCheckpoint[] {
  if (!existsSync(file)) return [];
  const checkpoints: SignedCheckpoint[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isSignedCheckpoint(parsed)) checkpoints.push(parsed);
    } catch {
      continue;
    }
  }
  return checkpoints;
}
