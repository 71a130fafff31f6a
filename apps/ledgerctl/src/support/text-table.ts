/**
 * Columns padded to their widest cell, two spaces apart; the last column is
 * not padded, so lines carry no trailing blanks and a long last cell
 * (a reason, a timestamp) does not widen the others.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]) =>
    header.map((_, column) => (column === header.length - 1 ? (row[column] ?? '') : (row[column] ?? '').padEnd(widths[column]))).join('  ');
  return `${all.map(line).join('\n')}\n`;
}

/** An absent value in a table cell. */
export const cell = (value: string | number | null | undefined): string => (value === null || value === undefined || value === '' ? '-' : String(value));
