import type { Database } from 'better-sqlite3';
import { InvalidAppendError } from '../../errors/invalid-append.error';
import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type { AppendResult } from '../../event-store.port';
import { satisfiesExpected } from '../../expected-version';
import { chainHash, GENESIS_HASH } from '../../hash-chain/hash-chain';
import type { CommitOutcome } from '@ledger/kernel';
import type { AtomicAppend, PreparedAppend } from '../shared/prepared-append';
import type { SqliteStatements } from './sqlite-statements';

interface ChainHead {
  readonly position: number;
  readonly hash: string;
}

/**
 * Commits a batch in one `BEGIN IMMEDIATE` transaction (one fsync). The head
 * is read inside the transaction, under the write lock, so two processes
 * sharing the file still extend one gap-free chain. Each element of the
 * batch (one `append`, or every stream of one `appendMany`) is checked as a
 * whole before any of it is written: a wrong expected version or a reused
 * event id in any of its streams fails that element only. Since nothing is
 * written until every check passed, no savepoint is needed to undo a part.
 */
export function sqliteBatchCommitter(
  db: Database,
  statements: SqliteStatements,
): (batch: readonly AtomicAppend[]) => readonly CommitOutcome<AppendResult[]>[] {
  const commit = db.transaction((batch: readonly AtomicAppend[]): CommitOutcome<AppendResult[]>[] => {
    let head: ChainHead = statements.head.get() ?? { position: 0, hash: GENESIS_HASH };
    return batch.map((appends) => {
      const actuals = appends.map((append) => statements.streamVersion.get(append.stream)?.version ?? 0);
      const refusal = refusalOf(statements, appends, actuals);
      if (refusal) return { error: refusal };
      const results = appends.map((append, index) => {
        const written = insertAppend(statements, head, append, actuals[index]);
        head = written.head;
        return written.result;
      });
      return { result: results };
    });
  });
  return (batch) => commit.immediate(batch);
}

/** Why these appends cannot be written as they stand (the first reason, in the order given), or undefined. */
function refusalOf(statements: SqliteStatements, appends: AtomicAppend, actuals: readonly number[]): Error | undefined {
  for (const [index, append] of appends.entries()) {
    if (!satisfiesExpected(append.expected, actuals[index])) {
      return new WrongExpectedVersionError(append.stream, append.expected, actuals[index]);
    }
    const reused = append.events.find((event) => event.idFromCaller && statements.idExists.get(event.id) !== undefined);
    if (reused) {
      return new InvalidAppendError(`event id ${reused.id} is already recorded`, { stream: append.stream, id: reused.id });
    }
  }
  return undefined;
}

function insertAppend(statements: SqliteStatements, head: ChainHead, append: PreparedAppend, actual: number): { result: AppendResult; head: ChainHead } {
  let version = actual;
  for (const event of append.events) {
    version++;
    const position = head.position + 1;
    const hash = chainHash(head.hash, position, append.stream, version, event.contentHash);
    statements.insert.run(position, event.id, append.stream, version, event.type, event.recordedAt, event.dataJson, event.metadataJson, head.hash, hash);
    head = { position, hash };
  }
  return { result: { stream: append.stream, version, position: head.position }, head };
}
