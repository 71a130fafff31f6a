import { canonicalJson, isUuid, uuidV7 } from '@ledger/kernel';
import type { NewEvent } from '../../envelope';
import { InvalidAppendError } from '../../errors/invalid-append.error';
import type { ExpectedVersion } from '../../expected-version';
import { canonicalContentText } from '../../hash-chain/canonical-content-text';
import { sha256 } from '../../hash-chain/hash-chain';
import type { PreparedAppend, PreparedEvent } from './prepared-append';

/** `<category>-<id>`: the category (before the first dash) and the id must both be non-empty. */
const STREAM_NAME = /^[^-]+-.+$/;

/** A JSON escape of U+0000 that is not itself an escaped backslash. */
const NUL_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u0000/;

/**
 * Validates an append and fixes what the hash needs before any store sees it:
 * ids, the recording time (taken now, at enqueue) and the content hash. Data
 * and metadata are replaced by their canonical JSON, the very text the
 * content hash covers, so that the hash is over exactly what a reader gets
 * back from any adapter, and a verifier can hash the stored text as it is.
 */
export function prepareAppend(
  stream: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
  recordedAt = new Date().toISOString(),
): PreparedAppend {
  if (typeof stream !== 'string' || !STREAM_NAME.test(stream) || stream.startsWith('$')) {
    // `$` opens EventStoreDB's system streams; refusing it everywhere keeps data portable.
    throw new InvalidAppendError(`stream name "${String(stream)}" is not <category>-<id>`, { stream });
  }
  if (!isExpectedVersion(expected)) {
    throw new InvalidAppendError(`expected version ${String(expected)} is not a version, no_stream, exists or any`, { stream });
  }
  if (!Array.isArray(events) || events.length === 0) {
    throw new InvalidAppendError('an append needs at least one event', { stream });
  }
  const prepared = events.map((event, index) => prepareEvent(stream, event, index, recordedAt));
  const ids = new Set(prepared.map((event) => event.id));
  if (ids.size !== prepared.length) {
    throw new InvalidAppendError('event ids within one append must be distinct', { stream });
  }
  return { stream, expected, events: prepared };
}

function prepareEvent(stream: string, event: NewEvent, index: number, recordedAt: string): PreparedEvent {
  const facts = { stream, index };
  if (typeof event?.type !== 'string' || event.type.length === 0) {
    throw new InvalidAppendError(`event ${index} has no type`, facts);
  }
  if (event.id !== undefined && !isUuid(event.id)) {
    throw new InvalidAppendError(`event ${index} has an id that is not a UUID`, { ...facts, id: event.id });
  }
  if (event.metadata === null || typeof event.metadata !== 'object' || Array.isArray(event.metadata)) {
    throw new InvalidAppendError(`event ${index} has no metadata object`, facts);
  }
  // JSON.stringify validates (it throws on cycles and BigInt, where canonicalJson would not); the canonical text is stored.
  assertJson(event.data, `event ${index} data`, facts);
  assertJson(event.metadata, `event ${index} metadata`, facts);
  const dataJson = canonicalJson(event.data);
  const metadataJson = canonicalJson(event.metadata);
  const id = event.id ?? uuidV7();
  const contentHash = sha256(canonicalContentText({ id, type: event.type, recordedAt, dataJson, metadataJson }));
  return { id, type: event.type, recordedAt, idFromCaller: event.id !== undefined, dataJson, metadataJson, contentHash };
}

function assertJson(value: unknown, what: string, facts: Record<string, unknown>): void {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new InvalidAppendError(`${what} is not JSON-serialisable: ${(error as Error).message}`, facts);
  }
  if (json === undefined) {
    throw new InvalidAppendError(`${what} is not JSON-serialisable`, facts);
  }
  if (NUL_ESCAPE.test(json)) {
    // PostgreSQL's jsonb cannot hold U+0000; refusing it everywhere keeps stores interchangeable.
    throw new InvalidAppendError(`${what} contains a U+0000 character`, facts);
  }
}

function isExpectedVersion(expected: unknown): expected is ExpectedVersion {
  return (
    expected === 'any' ||
    expected === 'no_stream' ||
    expected === 'exists' ||
    (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0)
  );
}
