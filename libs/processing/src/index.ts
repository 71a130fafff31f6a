export * from './sql/sql-database.port';
export * from './processors/processor';
