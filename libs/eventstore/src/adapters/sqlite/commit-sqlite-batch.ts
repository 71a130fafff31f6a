import type { Database } from 'better-sqlite3';
import { InvalidAppendError } from '../../errors/invalid-append.error';
import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type { AppendResult } from '../../event-store.port';
import { satisfiesExpected } from '../../expected-version';
import { chainHash, GENESIS_HASH } from '../../hash-chain/hash-chain';
import type { CommitOutcome } from '@ledger/kernel';
import type { PreparedAppend } from '../shared/prepared-append';
import type { SqliteStatements } from './sqlite-statements';

/**
 * Commits a batch of appends in one `BEGIN IMMEDIATE` transaction (one
 * fsync). The head is read inside the transaction, under the write lock, so
 * two processes sharing the file still extend one gap-free chain. Each append
 * is checked on its own: a wrong expected version or a reused event id fails
 * that append only, and since those checks run before it writes anything, no
 * savepoint is needed.
 */
export function sqliteBatchCommitter(
  db: Database,
  statements: SqliteStatements,
): (appends: readonly PreparedAppend[]) => readonly CommitOutcome<AppendResult>[] {
  const commit = db.transaction((appends: readonly PreparedAppend[]): CommitOutcome<AppendResult>[] => {
    let head = statements.head.get() ?? { position: 0, hash: GENESIS_HASH };
    return appends.map((append) => {
      const actual = statements.streamVersion.get(append.stream)?.version ?? 0;
      if (!satisfiesExpected(append.expected, actual)) {
        return { error: new WrongExpectedVersionError(append.stream, append.expected, actual) };
      }
      const reused = append.events.find((event) => event.idFromCaller && statements.idExists.get(event.id) !== undefined);
      if (reused) {
        return { error: new InvalidAppendError(`event id ${reused.id} is already recorded`, { stream: append.stream, id: reused.id }) };
      }
      let version = actual;
      for (const event of append.events) {
        version++;
        const position = head.position + 1;
        const hash = chainHash(head.hash, position, append.stream, version, event.contentHash);
        statements.insert.run(
          position,
          event.id,
          append.stream,
          version,
          event.type,
          event.recordedAt,
          event.dataJson,
          event.metadataJson,
          head.hash,
          hash,
        );
        head = { position, hash };
      }
      return { result: { stream: append.stream, version, position: head.position } };
    });
  });
  return (appends) => commit.immediate(appends);
}
