import { createSecondaryIndexes, dropSecondaryIndexes } from '../sql/secondary-indexes';
import type { SqlDatabase } from '../sql/sql-database.port';

export interface SqlDatabaseContractSetup {
  /** A new, empty database. */
  open(): Promise<SqlDatabase>;
  /** Removes what `open` created; called once after the suite. */
  dispose(): Promise<void>;
  /**
   * True when a read outside a transaction waits for the open transaction
   * (a single-connection database) instead of reading the last commit.
   */
  readonly readsWaitForTransactions?: boolean;
}

const CREATE_ITEMS = 'CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL, amount BIGINT NOT NULL)';

/** One suite for every SqlDatabase adapter: what read models and checkpoints rely on. */
export function sqlDatabaseContract(setup: () => SqlDatabaseContractSetup): void {
  let databases: SqlDatabaseContractSetup;
  let db: SqlDatabase;

  beforeAll(() => {
    databases = setup();
  });
  afterAll(async () => {
    await databases.dispose();
  });
  beforeEach(async () => {
    db = await databases.open();
    await db.run(CREATE_ITEMS);
  });

  const settle = <T>(promise: Promise<T>): { readonly done: () => boolean } => {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    return { done: () => done };
  };
  const turns = async (count: number): Promise<void> => {
    for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('runs statements and reports changed rows', async () => {
    expect(await db.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3), ($4, $5, $6)', [1, 'a', 10, 2, 'b', 20])).toBe(2);
    expect(await db.run('UPDATE items SET amount = amount + 1 WHERE amount > $1', [5])).toBe(2);
    expect(await db.all('SELECT id, label, amount FROM items ORDER BY id')).toEqual([
      { id: 1, label: 'a', amount: 11 },
      { id: 2, label: 'b', amount: 21 },
    ]);
    expect(await db.get('SELECT label FROM items WHERE id = $1', [2])).toEqual({ label: 'b' });
    expect(await db.get('SELECT label FROM items WHERE id = $1', [3])).toBeUndefined();
  });

  it('binds repeated and out-of-order placeholders', async () => {
    await db.run('INSERT INTO items (id, label, amount) VALUES ($2, $1, $2 * 10)', ['seven', 7]);
    expect(await db.get('SELECT id, label, amount FROM items WHERE id = $1 AND amount = $1 * 10', [7])).toEqual({ id: 7, label: 'seven', amount: 70 });
  });

  it('leaves $n inside string literals alone', async () => {
    await db.run("INSERT INTO items (id, label, amount) VALUES ($1, 'costs $2, ''$3''', $2)", [1, 5]);
    expect(await db.get("SELECT label, 'x$1' AS literal FROM items WHERE amount = $1", [5])).toEqual({ label: "costs $2, '$3'", literal: 'x$1' });
  });

  it('reads INTEGER, BIGINT, COUNT and SUM as JavaScript numbers', async () => {
    await db.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3)', [1, 'big', 2 ** 40]);
    await db.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3)', [2, 'small', 3]);
    expect(await db.get('SELECT COUNT(*) AS count, SUM(amount) AS total, MAX(id) AS top FROM items')).toEqual({
      count: 2,
      total: 2 ** 40 + 3,
      top: 2,
    });
  });

  it('runs a parameterless script of several statements', async () => {
    await db.run('CREATE TABLE a (x INTEGER); CREATE TABLE b (y INTEGER);');
    expect(await db.run('INSERT INTO b (y) VALUES ($1)', [1])).toBe(1);
  });

  it('runs a write that returns rows outside a transaction', async () => {
    expect(await db.all('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3) RETURNING id', [4, 'r', 1])).toEqual([{ id: 4 }]);
  });

  it('commits a transaction and resolves to its result', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3)', [1, 'a', 1]);
      return (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n;
    });
    expect(result).toBe(1);
    expect(await db.get('SELECT COUNT(*) AS n FROM items')).toEqual({ n: 1 });
  });

  it('rolls a transaction back when its work throws, and rethrows', async () => {
    const failure = new Error('boom');
    await expect(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3)', [1, 'a', 1]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await db.get('SELECT COUNT(*) AS n FROM items')).toEqual({ n: 0 });
  });

  it('rolls back when a statement fails and stays usable', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3)', [1, 'a', 1]);
        await tx.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3)', [1, 'duplicate', 1]);
      }),
      // Not toThrow(): better-sqlite3's errors come from the realm of the
      // first test file that loaded the native module, so they fail Jest's
      // instanceof Error in later files run by the same worker.
    ).rejects.toHaveProperty('message', expect.stringMatching(/unique|duplicate/i));
    await db.transaction((tx) => tx.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3)', [2, 'b', 1]));
    expect(await db.all('SELECT id FROM items')).toEqual([{ id: 2 }]);
  });

  it('never shows a read outside a transaction its uncommitted writes', async () => {
    let commit!: () => void;
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const tx = db.transaction(async (t) => {
      await t.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3)', [1, 'pending', 1]);
      written();
      await gate;
    });
    await wrote;
    const read = db.get('SELECT COUNT(*) AS n FROM items');
    if (databases.readsWaitForTransactions) {
      const state = settle(read);
      await turns(20);
      expect(state.done()).toBe(false);
      commit();
      await tx;
      expect(await read).toEqual({ n: 1 });
    } else {
      expect(await read).toEqual({ n: 0 });
      commit();
      await tx;
      expect(await db.get('SELECT COUNT(*) AS n FROM items')).toEqual({ n: 1 });
    }
  });

  it('serializes transactions: the second starts after the first ends', async () => {
    const steps: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = db.transaction(async (tx) => {
      steps.push('first begins');
      await tx.run('INSERT INTO items (id, label, amount) VALUES ($1, $2, $3)', [1, 'first', 1]);
      await gate;
      steps.push('first ends');
    });
    const second = db.transaction(async (tx) => {
      steps.push('second begins');
      await tx.run('UPDATE items SET label = $1', ['second']);
    });
    await turns(20);
    release();
    await Promise.all([first, second]);
    expect(steps).toEqual(['first begins', 'first ends', 'second begins']);
    expect(await db.all('SELECT label FROM items')).toEqual([{ label: 'second' }]);
  });

  it('refuses a transaction executor used after its transaction ended', async () => {
    const leaked = await db.transaction(async (tx) => tx);
    await expect(leaked.run('DELETE FROM items')).rejects.toThrow(/transaction has ended/);
  });

  it('drops the named secondary indexes that exist, never a primary key, and creates them again', async () => {
    await db.run('CREATE INDEX items_by_label ON items (label)');
    await db.run('CREATE TABLE others (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
    await db.run('CREATE INDEX others_by_label ON others (label)');
    const primaryKey = db.dialect === 'sqlite' ? 'sqlite_autoindex_items_1' : 'items_pkey';
    const dropped = await db.transaction((tx) => dropSecondaryIndexes(tx, db.dialect, ['items_by_label', primaryKey, 'absent_index']));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatch(/items_by_label/);
    expect(await db.transaction((tx) => dropSecondaryIndexes(tx, db.dialect, ['items_by_label']))).toEqual([]);
    await db.transaction((tx) => createSecondaryIndexes(tx, dropped));
    expect(await db.transaction((tx) => dropSecondaryIndexes(tx, db.dialect, ['items_by_label', 'others_by_label']))).toHaveLength(2);
  });
}
