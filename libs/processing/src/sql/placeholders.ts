/** A statement rewritten from PostgreSQL `$n` placeholders to SQLite's positional `?`. */
export interface PositionalSql {
  readonly sql: string;
  /** Number of distinct parameters the caller must pass (the highest `$n`). */
  readonly parameterCount: number;
  /**
   * For each `?`, the zero-based index of the caller's parameter it takes;
   * null when the `?`s take the parameters in order (`$1, $2, …` each once),
   * so the caller's array can be bound as it is.
   */
  readonly order: readonly number[] | null;
}

/**
 * Rewrites `$1…$n` to `?`, leaving string literals, quoted identifiers and
 * comments untouched. Repeated or out-of-order placeholders are mapped
 * through `order`, because SQLite's `?NNN` would force named binding.
 */
export function toPositionalSql(sql: string): PositionalSql {
  const order: number[] = [];
  let out = '';
  let copiedUpTo = 0;
  let i = 0;
  while (i < sql.length) {
    const char = sql[i];
    if (char === "'" || char === '"') {
      i = skipQuoted(sql, i, char);
    } else if (char === '-' && sql[i + 1] === '-') {
      i = skipUntil(sql, i + 2, '\n');
    } else if (char === '/' && sql[i + 1] === '*') {
      i = skipUntil(sql, i + 2, '*/');
    } else if (char === '$' && isDigit(sql.charCodeAt(i + 1))) {
      let end = i + 1;
      while (isDigit(sql.charCodeAt(end))) end++;
      const number = Number(sql.slice(i + 1, end));
      if (number < 1) throw new RangeError(`invalid placeholder $${number} in: ${sql}`);
      order.push(number - 1);
      out += `${sql.slice(copiedUpTo, i)}?`;
      copiedUpTo = end;
      i = end;
    } else {
      i++;
    }
  }
  out += sql.slice(copiedUpTo);
  const parameterCount = order.reduce((max, index) => Math.max(max, index + 1), 0);
  const inOrder = order.length === parameterCount && order.every((index, at) => index === at);
  return { sql: out, parameterCount, order: inOrder ? null : order };
}

/** Index just past a quoted literal or identifier; a doubled quote is an escaped one. */
function skipQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i += 2;
    } else {
      i++;
    }
  }
  return i;
}

function skipUntil(sql: string, from: number, terminator: string): number {
  const at = sql.indexOf(terminator, from);
  return at === -1 ? sql.length : at + terminator.length;
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;
