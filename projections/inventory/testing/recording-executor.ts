import type { SqlExecutor } from '@ledger/processing';

export interface RecordingExecutor {
  readonly executor: SqlExecutor;
  /** Statements run through `run` or `runEach`, in order. */
  readonly writes: string[];
  /** Statements run through `all` or `get`, in order. */
  readonly reads: string[];
}

/**
 * `tx` with every statement it is asked to run recorded, for specs that
 * assert what a projection reads and writes. `runEach: false` hides
 * `runEach`, as an engine over the network has none.
 */
export function recordingExecutor(tx: SqlExecutor, { runEach = tx.runEach !== undefined } = {}): RecordingExecutor {
  const writes: string[] = [];
  const reads: string[] = [];
  const executor: SqlExecutor = {
    run: (sql, params) => (writes.push(sql), tx.run(sql, params)),
    all: (sql, params) => (reads.push(sql), tx.all(sql, params)),
    get: (sql, params) => (reads.push(sql), tx.get(sql, params)),
    ...(runEach ? { runEach: (sql: string, lists: Iterable<readonly unknown[]>) => (writes.push(sql), tx.runEach!(sql, lists)) } : {}),
  };
  return { executor, writes, reads };
}
