import { Client } from 'pg';
import type { PlainRow, PlainTable } from './plain-table';

/** Rows per multi-row INSERT in `insertInOneTransaction`. */
const ROWS_PER_STATEMENT = 100;
const COLUMNS = 6;

/**
 * One connection, the store's column types (JSON as jsonb), default
 * synchronous_commit. Bulk inserts are multi-row INSERTs of 100 rows per
 * prepared statement inside one transaction; `pg` parses jsonb with
 * JSON.parse on read.
 */
export async function openPostgresPlainTable(connectionString: string, schema: string): Promise<PlainTable> {
  const client = new Client({ connectionString });
  client.on('error', () => undefined);
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.query(`SET search_path TO ${schema}`);
  await client.query(`CREATE TABLE plain_events (
    id text NOT NULL, stream text NOT NULL, version integer NOT NULL,
    type text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL)`);
  let open = true;
  const insert = async (name: string, rows: readonly PlainRow[]) => {
    await client.query({ name, text: insertSql(rows.length), values: rows.flatMap(rowValues) });
  };
  return {
    async insertInOneTransaction(rows) {
      await client.query('BEGIN');
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
        await insert(`plain_insert_${chunk.length}`, chunk);
      }
      await client.query('COMMIT');
    },
    insertAndCommit: (row) => insert('plain_insert_1', [row]),
    async readAllParsed() {
      const { rowCount } = await client.query('SELECT id, stream, version, type, data, metadata FROM plain_events');
      return rowCount ?? 0;
    },
    async close() {
      if (!open) return;
      open = false;
      await client.end();
    },
  };
}

const rowValues = (row: PlainRow): unknown[] => [row.id, row.stream, row.version, row.type, JSON.stringify(row.data), JSON.stringify(row.metadata)];

function insertSql(rows: number): string {
  const tuples = Array.from({ length: rows }, (_, row) => {
    const first = row * COLUMNS;
    return `($${first + 1}, $${first + 2}, $${first + 3}, $${first + 4}, $${first + 5}::jsonb, $${first + 6}::jsonb)`;
  });
  return `INSERT INTO plain_events (id, stream, version, type, data, metadata) VALUES ${tuples.join(', ')}`;
}
