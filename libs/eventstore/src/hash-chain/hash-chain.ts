import { hash } from 'node:crypto';
import { canonicalJson } from '@ledger/kernel';
import type { EventMetadata } from '../envelope';

/** `prevHash` of the first event in the log. */
export const GENESIS_HASH = '0'.repeat(64);

/** The parts of an event that the writer knows before the store places it. */
export interface HashableContent {
  readonly id: string;
  readonly type: string;
  readonly recordedAt: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

/**
 * Hash over what the caller wrote. Computed by the writer before append, so
 * a store that assigns the position inside the database (PostgreSQL) can
 * finish the chain with plain string concatenation, no JSON in SQL.
 */
export function contentHash(content: HashableContent): string {
  return sha256(
    canonicalJson({
      id: content.id,
      type: content.type,
      recordedAt: content.recordedAt,
      data: content.data,
      metadata: content.metadata,
    }),
  );
}

/**
 * The chain link: binds the content to its place (position, stream, version)
 * and to its predecessor. Changing, deleting, inserting or reordering any
 * event breaks every link after it. PostgreSQL's `ledger_append` computes the
 * same string: keep the two in step.
 */
export function chainHash(prevHash: string, position: number, stream: string, version: number, content: string): string {
  return sha256(`${prevHash}|${position}|${stream}|${version}|${content}`);
}

/**
 * One-shot `hash` rather than `createHash`: building a Hash object costs
 * several times the digest of an event (the measurement: "Rebuild, as-of
 * replay and audit verify" in `git show 055f85e:docs/benchmarks.md`).
 */
export function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}
