import {
  type EventStoreDBClient,
  jsonEvent,
  type JSONType,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
} from '@eventstore/db-client';
import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type { AppendResult } from '../../event-store.port';
import { satisfiesExpected } from '../../expected-version';
import { chainHash } from '../../hash-chain/hash-chain';
import type { PreparedAppend } from '../shared/prepared-append';
import type { EsdbChainHead } from './esdb-chain-head';
import { toEsdbMetadata } from './esdb-ledger-metadata';
import { toExpectedRevision, versionOfCurrentRevision } from './esdb-revision';
import { readEsdbStreamVersion } from './esdb-stream-version';

/**
 * Appends one batch after `head`, which the caller holds exclusively. The
 * chain hash covers the stream version, so for `any` and `exists` the
 * stream's version is read first and the append then expects exactly that
 * revision: EventStoreDB rejects it if another writer got in between.
 */
export async function appendEsdb(
  client: EventStoreDBClient,
  head: EsdbChainHead,
  append: PreparedAppend,
): Promise<{ result: AppendResult; head: EsdbChainHead }> {
  const { stream, expected } = append;
  const actual = typeof expected === 'number' ? expected : expected === 'no_stream' ? 0 : await readEsdbStreamVersion(client, stream);
  if (!satisfiesExpected(expected, actual)) throw new WrongExpectedVersionError(stream, expected, actual);

  let { position, hash } = head;
  const events = append.events.map((event, index) => {
    const prevHash = hash;
    position++;
    hash = chainHash(prevHash, position, stream, actual + index + 1, event.contentHash);
    return jsonEvent({
      id: event.id,
      type: event.type,
      // EventStoreDB stores any JSON value; its type only names the common ones.
      data: JSON.parse(event.dataJson) as JSONType,
      metadata: toEsdbMetadata(JSON.parse(event.metadataJson), { position, recordedAt: event.recordedAt, prevHash, hash }),
    });
  });
  try {
    await client.appendToStream(stream, events, { expectedRevision: toExpectedRevision(actual) });
  } catch (error) {
    if (error instanceof EsdbWrongExpectedVersionError) {
      throw new WrongExpectedVersionError(stream, expected, versionOfCurrentRevision(error.actualVersion));
    }
    throw error;
  }
  return { result: { stream, version: actual + events.length, position }, head: { position, hash } };
}
