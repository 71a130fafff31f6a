import { openSqliteSqlDatabase, type SqlDatabase, type SqlExecutor } from '@ledger/processing';
import { ChangeWriter } from './change-writer';

interface Row {
  key: string;
  name: string;
  size: number;
  note: string | null;
}

const COLUMNS = ['key', 'name', 'size', 'note'] as const;

/** The executor with every statement it is asked to run recorded; `withRunEach` false hides `runEach`, as an engine over the network has none. */
function recording(tx: SqlExecutor, withRunEach: boolean): { executor: SqlExecutor; statements: string[] } {
  const statements: string[] = [];
  const executor: SqlExecutor = {
    run: (sql, params) => (statements.push(sql), tx.run(sql, params)),
    all: (sql, params) => tx.all(sql, params),
    get: (sql, params) => tx.get(sql, params),
    ...(withRunEach ? { runEach: (sql: string, lists: Iterable<readonly unknown[]>) => (statements.push(sql), tx.runEach!(sql, lists)) } : {}),
  };
  return { executor, statements };
}

describe('ChangeWriter', () => {
  let db: SqlDatabase;
  const writer = new ChangeWriter<Row>('things', 'key', COLUMNS);
  const stored: Row[] = [
    { key: 'a', name: 'alpha', size: 1, note: null },
    { key: 'c', name: 'gamma', size: 3, note: 'kept' },
  ];

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    await db.run('CREATE TABLE things (key TEXT PRIMARY KEY, name TEXT NOT NULL, size INTEGER NOT NULL, note TEXT)');
    await db.run("INSERT INTO things VALUES ('a', 'alpha', 1, NULL), ('c', 'gamma', 3, 'kept')");
  });
  afterEach(() => db.close());

  const changes = () => [
    { row: { ...stored[0], size: 2, note: 'grew' }, stored: stored[0] },
    { row: { key: 'b', name: 'beta', size: 7, note: null }, stored: undefined },
    { row: { ...stored[1] }, stored: stored[1] },
  ];
  /** The statements the writer ran for `changes()` in one transaction. */
  const writeRecorded = (withRunEach: boolean): Promise<string[]> =>
    db.transaction(async (tx) => {
      const { executor, statements } = recording(tx, withRunEach);
      await writer.write(executor, changes());
      return statements;
    });
  const expectedRows = [
    { key: 'a', name: 'alpha', size: 2, note: 'grew' },
    { key: 'b', name: 'beta', size: 7, note: null },
    { key: 'c', name: 'gamma', size: 3, note: 'kept' },
  ];

  it('updates a stored row in the columns that changed only, inserts a new one whole, and leaves an unchanged one alone', async () => {
    const statements = await writeRecorded(true);
    expect(await db.all('SELECT * FROM things ORDER BY key')).toEqual(expectedRows);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/^INSERT INTO things \(key, name, size, note\) VALUES \(\$1, \$2, \$3, \$4\) ON CONFLICT/);
    expect(statements[1]).toBe('UPDATE things SET size = $1, note = $2 WHERE key = $3');
  });

  it('upserts changed rows whole, in one statement, where the executor cannot run a statement per row without a round trip', async () => {
    const statements = await writeRecorded(false);
    expect(await db.all('SELECT * FROM things ORDER BY key')).toEqual(expectedRows);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^INSERT INTO things .* VALUES \(\$1, \$2, \$3, \$4\), \(\$5, \$6, \$7, \$8\) ON CONFLICT/);
  });
});
