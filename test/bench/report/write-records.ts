import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { BenchRecord } from '../bench-module';

/** Writes the records as a JSON array, creating parent directories; returns the absolute path. */
export function writeRecords(file: string, records: readonly BenchRecord[]): string {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(records, null, 2)}\n`);
  return path;
}
