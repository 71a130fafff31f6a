import Database from 'better-sqlite3';
import type { PlainRow, PlainTable } from './plain-table';

/** The store's settings: WAL, and synchronous=FULL so every commit is fsynced before it returns. */
export function openSqlitePlainTable(file: string): PlainTable {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE plain_events (
    id TEXT NOT NULL, stream TEXT NOT NULL, version INTEGER NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL)`);
  const insert = db.prepare('INSERT INTO plain_events (id, stream, version, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  const select = db.prepare('SELECT id, stream, version, type, data, metadata FROM plain_events');
  const insertRow = (row: PlainRow) =>
    insert.run(row.id, row.stream, row.version, row.type, JSON.stringify(row.data), JSON.stringify(row.metadata));
  const insertAll = db.transaction((rows: readonly PlainRow[]) => {
    for (const row of rows) insertRow(row);
  });
  return {
    insertInOneTransaction: async (rows) => insertAll.immediate(rows),
    insertAndCommit: async (row) => {
      insertRow(row);
    },
    readAllParsed: async () => {
      // Iterated rather than .all(): one array of every row costs more in GC than the reads themselves.
      let count = 0;
      for (const row of select.iterate() as Iterable<{ data: string; metadata: string }>) {
        JSON.parse(row.data);
        JSON.parse(row.metadata);
        count++;
      }
      return count;
    },
    close: async () => {
      if (db.open) db.close();
    },
  };
}
