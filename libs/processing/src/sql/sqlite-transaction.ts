import type { SqlExecutor } from './sql-database.port';
import type { SqliteStatements } from './sqlite-statements';

const NO_PARAMS: readonly unknown[] = [];

/** The executor handed to one transaction's work; unusable once the transaction ends. */
export class SqliteTransaction implements SqlExecutor {
  private open = true;

  constructor(private readonly statements: SqliteStatements) {}

  async run(sql: string, params: readonly unknown[] = NO_PARAMS): Promise<number> {
    this.assertOpen();
    return this.statements.run(sql, params);
  }

  async runEach(sql: string, paramLists: Iterable<readonly unknown[]>): Promise<number> {
    this.assertOpen();
    return this.statements.runEach(sql, paramLists);
  }

  async all<Row = Record<string, unknown>>(sql: string, params: readonly unknown[] = NO_PARAMS): Promise<Row[]> {
    this.assertOpen();
    return this.statements.all<Row>(sql, params);
  }

  async get<Row = Record<string, unknown>>(sql: string, params: readonly unknown[] = NO_PARAMS): Promise<Row | undefined> {
    this.assertOpen();
    return this.statements.get<Row>(sql, params);
  }

  end(): void {
    this.open = false;
  }

  private assertOpen(): void {
    if (!this.open) throw new Error('the transaction has ended; use the executor only inside its work function');
  }
}
