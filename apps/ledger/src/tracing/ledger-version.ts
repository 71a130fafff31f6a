import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The `version` of the package.json above this file (the same from src/ and dist/), or `unknown`. */
export function ledgerVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
    if (dirname(dir) === dir) return 'unknown';
  }
}
