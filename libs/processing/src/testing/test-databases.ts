import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { postgresUrl } from '../../../../test/support/services';
import { openPostgresSqlDatabase } from '../sql/postgres-sql-database';
import { openSqliteSqlDatabase } from '../sql/sqlite-sql-database';
import type { SqlDatabase } from '../sql/sql-database.port';

/** Fresh databases for one test file; everything they leave is removed by `dispose`. */
export interface TestDatabases {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Opens database `name` (a new, empty one for a new name): opening a name
   * twice gives two connections to one database, like two ledger processes.
   */
  open(name: string): Promise<SqlDatabase>;
  /** Closes every database opened and removes their files or schemas. */
  dispose(): Promise<void>;
}

/** Each name is an SQLite file in a temporary directory. */
export function sqliteTestDatabases(): TestDatabases {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-processing-'));
  const opened: SqlDatabase[] = [];
  return {
    dialect: 'sqlite',
    async open(name) {
      const db = await openSqliteSqlDatabase({ file: join(dir, `${name}.sqlite`) });
      opened.push(db);
      return db;
    },
    async dispose() {
      await Promise.all(opened.map((db) => db.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Each name is a schema of the test PostgreSQL, unique to this run and dropped at the end. */
export function postgresTestDatabases(): TestDatabases {
  const run = `processing_${process.pid}_${Date.now().toString(36)}`;
  const opened: SqlDatabase[] = [];
  const schemas = new Set<string>();
  return {
    dialect: 'postgres',
    async open(name) {
      const schema = `${run}_${name.replace(/\W/g, '_')}`;
      const db = await openPostgresSqlDatabase({ connectionString: postgresUrl(), schema, maxConnections: 4 });
      opened.push(db);
      schemas.add(schema);
      return db;
    },
    async dispose() {
      await Promise.all(opened.map((db) => db.close()));
      if (schemas.size === 0) return;
      const client = new Client({ connectionString: postgresUrl() });
      await client.connect();
      try {
        for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
