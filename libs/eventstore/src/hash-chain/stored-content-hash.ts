import { canonicalContentText } from './canonical-content-text';
import { sha256 } from './hash-chain';
import type { StoredEvent } from './stored-event';

/**
 * The text between the two JSON columns in `canonicalJson(content)`. Every
 * other part of that text is a fixed key or a JSON string literal, which
 * cannot hold this sequence's unescaped quotes.
 */
const METADATA_KEY = ',"metadata":';

/**
 * `contentHash` rebuilt from the stored columns by concatenation, without
 * parsing: writers store data and metadata as their canonical JSON, so for
 * an untouched row this is exactly the text `contentHash` hashed.
 *
 * Returns undefined when a match could not be trusted, and the caller must
 * decode. A match means the concatenation equals the written text; it then
 * splits into the same columns unless one JSON column contains
 * `,"metadata":` (the id, recordedAt and type literals are pinned by their
 * unescaped quotes; only the data/id/metadata boundary could move, and
 * moving it puts the real `,"metadata":` inside one of the JSON columns).
 * So on a match the columns are the written canonical text, and decoding
 * would hash the same: the verdict is the full decode's.
 */
export function storedContentHash(event: StoredEvent): string | undefined {
  const { id, type, recordedAt, dataJson, metadataJson } = event;
  if (typeof id !== 'string' || typeof type !== 'string' || typeof recordedAt !== 'string') return undefined;
  if (typeof dataJson !== 'string' || typeof metadataJson !== 'string') return undefined;
  if (dataJson.includes(METADATA_KEY) || metadataJson.includes(METADATA_KEY)) return undefined;
  return sha256(canonicalContentText({ id, type, recordedAt, dataJson, metadataJson }));
}
