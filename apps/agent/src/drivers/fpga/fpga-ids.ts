import { findSysfsPaths } from '../../discovery/sysfs-glob';
import { hasValue, problemOf, readEntryText } from '../../discovery/sysfs-entries';
import type { SysfsReader } from '../../discovery/sysfs-reader';
import { normalizeFpgaId } from '../pci/trait-names';

/**
 * The FPGA ids found at the paths matching any of `layouts` under `base`
 * (32 lower-case hex, unique, in path order). Entries that are unreadable
 * or hold no id are skipped with a warning.
 */
export async function readFpgaIds(sysfs: SysfsReader, base: string, layouts: readonly (readonly (string | RegExp)[])[]): Promise<string[]> {
  const paths = (await Promise.all(layouts.map((segments) => findSysfsPaths(base, segments)))).flat();
  const ids: string[] = [];
  for (const path of paths) {
    const read = await readEntryText(path);
    if (!hasValue(read)) {
      const problem = problemOf(read);
      if (problem !== undefined) sysfs.warnSkipped(path, problem);
      continue;
    }
    const id = normalizeFpgaId(read.value);
    if (id === undefined) sysfs.warnSkipped(path, `${JSON.stringify(read.value.slice(0, 40))} is not a 128-bit FPGA id`);
    else if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
