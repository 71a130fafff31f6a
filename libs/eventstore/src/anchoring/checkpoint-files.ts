import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isSignedCheckpoint, type SignedCheckpoint } from './head-checkpoint';
import { isRollbackAcceptanceLine, type SignedRollbackAcceptance } from './rollback-acceptance';

/**
 * Appends one checkpoint as a JSON line. The data dir's `checkpoints.jsonl`
 * and the optional published copy are written the same way; `appendFileSync`
 * opens with O_APPEND, so a copy on an append-only mount keeps working.
 */
export function appendCheckpointLine(file: string, checkpoint: SignedCheckpoint): void {
  appendLine(file, checkpoint);
}

/** Appends an operator's acceptance of a rollback, as `{"rollbackAccepted": …}`, to a checkpoint file (read by `readRollbackAcceptances`). */
export function appendRollbackAcceptanceLine(file: string, acceptance: SignedRollbackAcceptance): void {
  appendLine(file, { rollbackAccepted: acceptance });
}

/**
 * Every well-formed checkpoint line of a file (none when it does not
 * exist). A torn last line (a crash mid-append) is skipped; whether a
 * checkpoint is genuine is the verifier's question, not the reader's.
 */
export function readCheckpointLines(file: string): SignedCheckpoint[] {
  return jsonLines(file).filter(isSignedCheckpoint);
}

/** Every well-formed acceptance of a rollback in a checkpoint file, oldest first. */
export function readRollbackAcceptances(file: string): SignedRollbackAcceptance[] {
  return jsonLines(file)
    .filter(isRollbackAcceptanceLine)
    .map((line) => line.rollbackAccepted);
}

function appendLine(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(value)}\n`, 'utf8');
}

function jsonLines(file: string): unknown[] {
  if (!existsSync(file)) return [];
  const values: unknown[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      continue;
    }
  }
  return values;
}
