import type { BenchRecord, RecordSpec } from '../bench-module';

/** A plain-text table: name, store, value, unit, ratio (and which ceiling the ratio is against). */
export function formatTable(records: readonly BenchRecord[], specs: ReadonlyMap<string, RecordSpec>): string {
  const header = ['name', 'store', 'value', 'unit', 'ratio', 'vs'];
  const rows = records.map((record) => [
    record.name,
    record.store,
    record.value.toLocaleString('en-US', { maximumFractionDigits: 3 }),
    record.unit,
    record.ratio_to_ceiling === null ? '-' : record.ratio_to_ceiling.toFixed(3),
    record.ratio_to_ceiling === null ? '' : (specs.get(record.name)?.ceiling ?? ''),
  ]);
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column].length)));
  const numeric = new Set([2, 4]);
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
