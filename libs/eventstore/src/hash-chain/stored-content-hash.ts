import { isCanonicalJson } from '@ledger/kernel';
import { canonicalContentText } from './canonical-content-text';
import { sha256 } from './hash-chain';
import type { StoredEvent } from './stored-event';

/**
 * `contentHash` rebuilt from the stored columns by concatenation, without
 * parsing: writers store data and metadata as their canonical JSON, so for
 * an untouched row this is exactly the text `contentHash` hashed.
 *
 * Returns undefined when the columns are not provably canonical text (rows
 * written before stores kept it, jsonb's text, a string with an escape, a
 * forged row), and the caller must decode. When it returns a hash, it is the
 * hash decoding would give: each JSON column is its value's canonical text,
 * and the concatenation splits one way only (a complete JSON value ends
 * where it ends; the id, recordedAt and type literals end at their first
 * unescaped quote). So a match here and a match after decoding agree.
 */
export function storedContentHash(event: StoredEvent): string | undefined {
  const { id, type, recordedAt, dataJson, metadataJson } = event;
  if (typeof id !== 'string' || typeof type !== 'string' || typeof recordedAt !== 'string') return undefined;
  if (typeof dataJson !== 'string' || typeof metadataJson !== 'string') return undefined;
  if (!isCanonicalJson(dataJson) || !isCanonicalJson(metadataJson)) return undefined;
  return sha256(canonicalContentText({ id, type, recordedAt, dataJson, metadataJson }));
}
