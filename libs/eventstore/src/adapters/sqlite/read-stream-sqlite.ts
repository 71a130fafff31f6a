import type { RecordedEvent } from '../../envelope';
import type { ReadStreamOptions } from '../../event-store.port';
import { fromSqliteRow } from './sqlite-row';
import type { SqliteStatements } from './sqlite-statements';

export function readStreamSqlite(statements: SqliteStatements, stream: string, options: ReadStreamOptions = {}): RecordedEvent[] {
  // SQLite reads a negative LIMIT as "no limit".
  const rows = statements.readStream(options.max ?? -1).all(stream, options.fromVersion ?? 1);
  return rows.map(fromSqliteRow);
}
