import { join } from 'node:path';
import { hasValue, readEntryNames } from './sysfs-entries';

/**
 * The paths under `base` matching `segments` in turn: a string names one
 * entry, a pattern matches entry names (`['fpga_region', /^region\d+$/,
 * 'compat_id']`). Missing or unreadable directories simply match nothing;
 * the caller reads what is found and warns about what is odd there.
 */
export async function findSysfsPaths(base: string, segments: readonly (string | RegExp)[]): Promise<string[]> {
  let paths = [base];
  for (const segment of segments) {
    if (typeof segment === 'string') {
      paths = paths.map((path) => join(path, segment));
      continue;
    }
    const expanded = await Promise.all(
      paths.map(async (path) => {
        const names = await readEntryNames(path);
        return hasValue(names) ? names.value.filter((name) => segment.test(name)).map((name) => join(path, name)) : [];
      }),
    );
    paths = expanded.flat();
  }
  return paths;
}
