import type Database from 'better-sqlite3';
import { toPositionalSql } from './placeholders';

interface PreparedSql {
  /** Null for a parameterless script of several statements, which SQLite can only `exec`. */
  readonly statement: Database.Statement<unknown[]> | null;
  readonly parameterCount: number;
  readonly order: readonly number[] | null;
  /** True when the statement cannot write, so a read-only connection may run it. */
  readonly readonly: boolean;
}

/** Keeps distinct statement texts bounded when callers build SQL dynamically (IN lists). */
const MAX_CACHED_STATEMENTS = 1000;

/**
 * One better-sqlite3 connection with `$n` statements prepared once per SQL
 * text: preparing dominates the cost of a small statement, and projections
 * run the same few statements for every event.
 */
export class SqliteStatements {
  private readonly cache = new Map<string, PreparedSql>();

  constructor(readonly connection: Database.Database) {}

  prepare(sql: string): PreparedSql {
    let prepared = this.cache.get(sql);
    if (prepared === undefined) {
      prepared = this.compile(sql);
      if (this.cache.size >= MAX_CACHED_STATEMENTS) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(sql, prepared);
    }
    return prepared;
  }

  run(sql: string, params: readonly unknown[]): number {
    const prepared = this.prepare(sql);
    if (prepared.statement === null) {
      if (params.length > 0) throw new RangeError(`a script of several statements takes no parameters: ${sql}`);
      this.connection.exec(sql);
      return 0;
    }
    return prepared.statement.run(bind(prepared, params, sql)).changes;
  }

  runEach(sql: string, paramLists: Iterable<readonly unknown[]>): number {
    const prepared = this.prepare(sql);
    const statement = singleStatement(prepared, sql);
    let changes = 0;
    for (const params of paramLists) changes += statement.run(bind(prepared, params, sql)).changes;
    return changes;
  }

  all<Row>(sql: string, params: readonly unknown[]): Row[] {
    const prepared = this.prepare(sql);
    return singleStatement(prepared, sql).all(bind(prepared, params, sql)) as Row[];
  }

  get<Row>(sql: string, params: readonly unknown[]): Row | undefined {
    const prepared = this.prepare(sql);
    return singleStatement(prepared, sql).get(bind(prepared, params, sql)) as Row | undefined;
  }

  private compile(sql: string): PreparedSql {
    const positional = toPositionalSql(sql);
    try {
      const statement = this.connection.prepare<unknown[]>(positional.sql);
      return { statement, parameterCount: positional.parameterCount, order: positional.order, readonly: statement.readonly };
    } catch (error) {
      if (!/more than one statement/.test((error as Error).message)) throw error;
      return { statement: null, parameterCount: 0, order: null, readonly: false };
    }
  }
}

function singleStatement(prepared: PreparedSql, sql: string): Database.Statement<unknown[]> {
  if (prepared.statement === null) throw new RangeError(`a query must be a single statement: ${sql}`);
  return prepared.statement;
}

function bind(prepared: PreparedSql, params: readonly unknown[], sql: string): unknown[] {
  if (prepared.order === null) return params as unknown[];
  if (params.length !== prepared.parameterCount) {
    throw new RangeError(`expected ${prepared.parameterCount} parameters, got ${params.length}: ${sql}`);
  }
  return prepared.order.map((index) => params[index]);
}
