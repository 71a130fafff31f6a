import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventStore } from '@ledger/eventstore';
import { openSqliteSqlDatabase } from '@ledger/processing';
import type { BenchTarget } from './bench-target';
import { Closers } from './closers';
import { openSqlitePlainTable } from './sqlite-plain-table';

/** SQLite files in a fresh temporary directory (same disk as ./data), removed at the end. */
export function openSqliteTarget(onCloseError: (error: unknown) => void): BenchTarget {
  const directory = mkdtempSync(join(tmpdir(), 'ledger-bench-'));
  const closers = new Closers();
  closers.defer(() => rmSync(directory, { recursive: true, force: true }));
  let files = 0;
  const fileFor = (label: string) => {
    closers.assertOpen();
    return join(directory, `${++files}-${label}.db`);
  };
  return {
    name: 'sqlite',
    openEventStore: async (label, observer) => closers.add(await openEventStore({ kind: 'sqlite', file: fileFor(label), observer })),
    openReadModel: async (label) => closers.add(await openSqliteSqlDatabase({ file: fileFor(label) })),
    openPlainTable: async (label) => closers.add(openSqlitePlainTable(fileFor(label))),
    close: () => closers.closeAll(onCloseError),
  };
}
