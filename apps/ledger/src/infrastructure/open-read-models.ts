import type { ReadModelOptions } from '@ledger/config';
import { openPostgresSqlDatabase, openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';

/** Opens the database that holds read models, checkpoints and leases. */
export function openReadModels(options: ReadModelOptions): Promise<SqlDatabase> {
  return options.kind === 'postgres'
    ? openPostgresSqlDatabase({ connectionString: options.connectionString, schema: options.schema })
    : openSqliteSqlDatabase({ file: options.file });
}
