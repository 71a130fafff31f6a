import { toPositionalSql } from './placeholders';

describe('toPositionalSql', () => {
  it('binds in order when each placeholder appears once, ascending', () => {
    expect(toPositionalSql('SELECT * FROM t WHERE a = $1 AND b = $2')).toEqual({
      sql: 'SELECT * FROM t WHERE a = ? AND b = ?',
      parameterCount: 2,
      order: null,
    });
  });

  it('maps repeated and out-of-order placeholders', () => {
    expect(toPositionalSql('VALUES ($2, $1, $2, $10)')).toEqual({ sql: 'VALUES (?, ?, ?, ?)', parameterCount: 10, order: [1, 0, 1, 9] });
  });

  it('leaves literals, quoted identifiers and comments alone', () => {
    const sql = `SELECT 'it''s $1', "col$2", $1 -- $3\n/* $4 */ , $2`;
    expect(toPositionalSql(sql)).toEqual({ sql: `SELECT 'it''s $1', "col$2", ? -- $3\n/* $4 */ , ?`, parameterCount: 2, order: null });
  });

  it('leaves a dollar not followed by a digit alone', () => {
    expect(toPositionalSql('SELECT $x, $$').sql).toBe('SELECT $x, $$');
  });

  it('rejects $0', () => {
    expect(() => toPositionalSql('SELECT $0')).toThrow(RangeError);
  });
});
