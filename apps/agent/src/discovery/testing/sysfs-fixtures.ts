import { cp, lstat, mkdtemp, readdir, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { DiscoveryLogger } from '../discovery-logger';

/** test/fixtures/sysfs: one directory per fixture host, its sysfs tree under `sys/`, fake vendor tools under `bin/`. */
export const SYSFS_FIXTURES = resolve(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'sysfs');

export type SysfsFixtureName = 'nvidia-gpu' | 'intel-fpga' | 'xilinx-fpga' | 'intel-qat' | 'sriov-nic' | 'generic-pci' | 'broken';

export interface FixtureCopy {
  /** The copy's top directory (holds `sys/`, `bin/`…). */
  readonly dir: string;
  /** Its sysfs root. */
  readonly root: string;
  /** Its fake vendor tools. */
  readonly bin: string;
  remove(): Promise<void>;
}

/**
 * A private, complete copy of a fixture host. The trees in the repository
 * hold each PF's `virtfnN` links but not the VFs' `physfn` links back:
 * both together make a symlink cycle (as real sysfs does) that trips tools
 * walking the repository. The copy gets them back here.
 */
export async function copyFixture(name: SysfsFixtureName): Promise<FixtureCopy> {
  const dir = await mkdtemp(join(tmpdir(), `sysfs-${name}-`));
  await cp(join(SYSFS_FIXTURES, name), dir, { recursive: true, verbatimSymlinks: true });
  const root = join(dir, 'sys');
  await linkVfsToPfs(root);
  return { dir, root, bin: join(dir, 'bin'), remove: () => rm(dir, { recursive: true, force: true }) };
}

async function linkVfsToPfs(root: string): Promise<void> {
  const devices = join(root, 'bus', 'pci', 'devices');
  for (const name of await readdir(devices)) {
    const pf = await realpath(join(devices, name)).catch(() => undefined);
    if (pf === undefined) continue;
    for (const entry of await readdir(pf).catch(() => [] as string[])) {
      if (!/^virtfn\d+$/.test(entry)) continue;
      const vf = await realpath(join(pf, entry)).catch(() => undefined);
      if (vf === undefined || (await exists(join(vf, 'physfn')))) continue;
      await symlink(relative(vf, pf), join(vf, 'physfn'));
    }
  }
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** A logger that keeps what it was told. */
export function recordingLogger(): DiscoveryLogger & { readonly warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => warnings.push(message) };
}
