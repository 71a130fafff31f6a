import { openSqliteSqlDatabase } from './sqlite-sql-database';
import type { SqlDatabase } from './sql-database.port';
import { sqlDatabaseContract } from '../testing/sql-database.contract';
import { sqliteTestDatabases } from '../testing/test-databases';

describe('SQLite SqlDatabase on a file', () => {
  let count = 0;
  sqlDatabaseContract(() => {
    const databases = sqliteTestDatabases();
    return { open: () => databases.open(`contract-${++count}`), dispose: () => databases.dispose() };
  });
});

describe('SQLite SqlDatabase in memory', () => {
  sqlDatabaseContract(() => {
    const opened: SqlDatabase[] = [];
    return {
      readsWaitForTransactions: true,
      async open() {
        const db = await openSqliteSqlDatabase({ file: ':memory:' });
        opened.push(db);
        return db;
      },
      dispose: async () => {
        await Promise.all(opened.map((db) => db.close()));
      },
    };
  });
});

describe('SQLite SqlDatabase specifics', () => {
  const databases = sqliteTestDatabases();
  afterAll(() => databases.dispose());

  // NORMAL (1): a read model commits without its own fsync; it and its checkpoint commit together (docs/architecture.md, "Durability of the read models").
  it('journals in WAL mode with synchronous NORMAL on the writer', async () => {
    const db = await databases.open('pragmas');
    await db.transaction(async (tx) => {
      expect(await tx.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(await tx.get('PRAGMA synchronous')).toEqual({ synchronous: 1 });
    });
  });

  it('rejects a statement with the wrong number of parameters when it reorders them', async () => {
    const db = await databases.open('arity');
    await db.run('CREATE TABLE t (a INTEGER, b INTEGER)');
    await expect(db.run('INSERT INTO t (a, b) VALUES ($2, $1)', [1])).rejects.toThrow(/expected 2 parameters, got 1/);
  });

  it('shows a second connection to the same file what the first committed', async () => {
    const first = await databases.open('shared');
    const second = await databases.open('shared');
    await first.run('CREATE TABLE t (a INTEGER)');
    await first.transaction((tx) => tx.run('INSERT INTO t (a) VALUES ($1)', [1]));
    expect(await second.all('SELECT a FROM t')).toEqual([{ a: 1 }]);
  });

  it("waits for another connection's write lock without blocking, then writes", async () => {
    const first = await databases.open('contended');
    const second = await databases.open('contended');
    await first.run('CREATE TABLE t (a INTEGER)');
    let commit!: () => void;
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const holding = first.transaction(async (tx) => {
      await tx.run('INSERT INTO t (a) VALUES (1)');
      written();
      await gate;
    });
    await wrote;
    const waiting = second.run('INSERT INTO t (a) VALUES (2)');
    commit();
    await holding;
    await waiting;
    expect(await second.all('SELECT a FROM t ORDER BY a')).toEqual([{ a: 1 }, { a: 2 }]);
  });
});
