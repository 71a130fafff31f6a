import { ANY, type AppendExpectedRevision, type CurrentRevision, NO_STREAM, STREAM_EXISTS } from '@eventstore/db-client';
import type { ExpectedVersion } from '../../expected-version';

/*
 * EventStoreDB numbers a stream's events from revision 0; the ledger numbers
 * them from version 1. So:
 *   version   = revision + 1                (first event: revision 0, version 1)
 *   expected N ↔ expectedRevision N - 1     (the revision of the stream's last event)
 *   expected 0 ↔ NO_STREAM                  (version 0 means "no events yet")
 *   no_stream ↔ NO_STREAM, exists ↔ STREAM_EXISTS, any ↔ ANY
 * and a current revision reported by the server maps back to a version the
 * same way (NO_STREAM ↔ 0).
 */

export function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'exists':
      return STREAM_EXISTS;
    default:
      return expected === 0 ? NO_STREAM : BigInt(expected - 1);
  }
}

export const versionOfRevision = (revision: bigint): number => Number(revision) + 1;

export const versionOfCurrentRevision = (current: CurrentRevision): number =>
  current === NO_STREAM ? 0 : versionOfRevision(current);
