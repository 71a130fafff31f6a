/** A WHERE clause built from the filters a caller set, with `$n` parameters. */
export class Conditions {
  readonly params: unknown[] = [];

  constructor(private readonly clauses: string[]) {}

  equal(column: string, value: string | number | undefined): void {
    if (value !== undefined) this.add(`${column} = ${this.param(value)}`);
  }

  add(clause: string): void {
    this.clauses.push(clause);
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  sql(): string {
    return this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`;
  }
}
