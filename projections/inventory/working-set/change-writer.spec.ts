import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { recordingExecutor } from '../testing/recording-executor';
import { ChangeWriter } from './change-writer';

interface Row {
  key: string;
  name: string;
  size: number;
  note: string | null;
}

const COLUMNS = ['key', 'name', 'size', 'note'] as const;

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
      const { executor, writes } = recordingExecutor(tx, { runEach: withRunEach });
      await writer.write(executor, changes());
      return writes;
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
