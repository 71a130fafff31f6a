import { TableRows } from './table-rows';

interface Row {
  key: string;
  parent: string;
  value: number;
}

const rowsOf = () => new TableRows<Row>((row) => row.key, (row) => row.parent);

describe('TableRows', () => {
  it('keeps the row as loaded beside the one the batch changes in place, and hands both to the flush', () => {
    const rows = rowsOf();
    rows.load({ key: 'a', parent: 'p', value: 1 });
    const row = rows.get('a')!;
    row.value = 2;
    rows.put(row);
    rows.put({ key: 'b', parent: 'p', value: 3 });
    expect(rows.changes()).toEqual([
      { row: { key: 'a', parent: 'p', value: 2 }, stored: { key: 'a', parent: 'p', value: 1 } },
      { row: { key: 'b', parent: 'p', value: 3 }, stored: undefined },
    ]);
  });

  it('keeps the first copy of a row loaded twice, and a deleted row deleted when a later read loads it again', () => {
    const rows = rowsOf();
    rows.load({ key: 'a', parent: 'p', value: 1 });
    rows.load({ key: 'a', parent: 'p', value: 9 });
    rows.load({ key: 'b', parent: 'p', value: 1 });
    rows.delete('b');
    rows.load({ key: 'b', parent: 'p', value: 1 });
    expect(rows.get('a')).toEqual({ key: 'a', parent: 'p', value: 1 });
    expect(rows.get('b')).toBeUndefined();
    expect(rows.deletedKeys()).toEqual(['b']);
    expect(rows.keysIn('p')).toEqual(['a']);
  });

  it('writes back a row deleted then put again as a change of the stored row, not as a delete', () => {
    const rows = rowsOf();
    rows.load({ key: 'a', parent: 'p', value: 1 });
    rows.delete('a');
    rows.put({ key: 'a', parent: 'q', value: 5 });
    expect(rows.deletedKeys()).toEqual([]);
    expect(rows.changes()).toEqual([{ row: { key: 'a', parent: 'q', value: 5 }, stored: { key: 'a', parent: 'p', value: 1 } }]);
    expect(rows.keysIn('p')).toEqual([]);
    expect(rows.keysIn('q')).toEqual(['a']);
  });

  it('hands the flush its deleted keys in key order', () => {
    const rows = rowsOf();
    for (const key of ['c', 'a', 'b']) rows.load({ key, parent: 'p', value: 1 });
    for (const key of ['c', 'a', 'b']) rows.delete(key);
    expect(rows.deletedKeys()).toEqual(['a', 'b', 'c']);
  });

  it('asks for each key and group once', () => {
    const rows = rowsOf();
    expect(rows.unknown(['a', 'b'])).toEqual(['a', 'b']);
    expect(rows.unknown(['b', 'c'])).toEqual(['c']);
    expect(rows.unknownGroups(['p'])).toEqual(['p']);
    expect(rows.unknownGroups(['p'])).toEqual([]);
  });
});
