import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** Suites that need the real Placement say so in their path. */
const NEEDS_PLACEMENT = /placement.*\.(int|e2e)-spec\.ts$/i;

/**
 * Whether this Jest run selects a suite that needs the real Placement: it
 * takes several seconds of CPU to start, which a run of unrelated files
 * should not pay. No path pattern (the whole `npm test`) selects them all.
 */
export function selectsPlacementSuites(testPathPatterns: readonly string[]): boolean {
  if (testPathPatterns.length === 0) return true;
  const patterns = testPathPatterns.map((pattern) => new RegExp(pattern, 'i'));
  return placementSuites().some((file) => patterns.some((pattern) => pattern.test(file) || pattern.test(relative(ROOT, file))));
}

function placementSuites(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (NEEDS_PLACEMENT.test(path)) found.push(path);
    }
  };
  for (const dir of ['apps', 'libs', 'projections', 'test']) walk(join(ROOT, dir));
  return found;
}
