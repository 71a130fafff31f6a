import { lstat, mkdir, readFile, readdir, readlink, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { formatPciAddress, parsePciAddress } from '../pci-address';
import type { SysfsWrite } from '../sysfs-reader';

export interface KernelEmulatorOptions {
  /** Drivers whose probe fails (as when the module is not loaded): binding to them leaves the function unbound. */
  readonly failingDrivers?: readonly string[];
}

const errno = (code: string, message: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: ${message}`), { code });

/**
 * What the kernel does when the agent writes a sysfs attribute, acted out on
 * a fixture tree so driver operations can be tested end to end:
 * `sriov_numvfs` (0 first, like the kernel; creates and removes VF
 * functions from `sriov_offset`/`sriov_stride`/`sriov_vf_device`),
 * `driver_override`, `driver/unbind`, `drivers_probe` (binds to the override,
 * else back to the driver the function had), mdev `create` and `remove`.
 * Any other path is written as a plain file.
 */
export function kernelEmulator(root: string, options: KernelEmulatorOptions = {}): SysfsWrite {
  const hostDrivers = new Map<string, string>();
  const failing = new Set(options.failingDrivers ?? []);
  const devices = join(root, 'bus', 'pci', 'devices');

  const functionDir = (address: string) => realpath(join(devices, address));
  const currentDriver = async (dir: string) => (await exists(join(dir, 'driver'))) ? basename(await readlink(join(dir, 'driver'))) : null;

  async function bind(dir: string, driver: string): Promise<void> {
    if (failing.has(driver)) return;
    await symlink(relative(dir, join(root, 'bus', 'pci', 'drivers', driver)), join(dir, 'driver'));
  }

  async function unbind(address: string): Promise<void> {
    const dir = await functionDir(address);
    const driver = await currentDriver(dir);
    if (driver === null) throw errno('ENODEV', `${address} is not bound`);
    if (driver !== 'vfio-pci' && !hostDrivers.has(address)) hostDrivers.set(address, driver);
    await unlink(join(dir, 'driver'));
  }

  async function probe(address: string): Promise<void> {
    const dir = await functionDir(address);
    if ((await currentDriver(dir)) !== null) return;
    const override = (await readFile(join(dir, 'driver_override'), 'utf8')).trim();
    const driver = override !== '' && override !== '(null)' ? override : hostDrivers.get(address);
    if (driver !== undefined) await bind(dir, driver);
  }

  async function setNumVfs(pfDir: string, value: string): Promise<void> {
    const wanted = Number(value.trim());
    const [current, total] = await Promise.all([number(join(pfDir, 'sriov_numvfs')), number(join(pfDir, 'sriov_totalvfs'))]);
    if (!Number.isInteger(wanted) || wanted < 0 || wanted > total) throw errno('ERANGE', `${value.trim()} VFs is outside 0..${total}`);
    if (wanted !== 0 && current !== 0) throw errno('EBUSY', `${current} VFs already enabled; write 0 first`);
    for (const name of await readdir(pfDir)) {
      if (!/^virtfn\d+$/.test(name)) continue;
      const vf = basename(await readlink(join(pfDir, name)));
      await rm(join(dirname(pfDir), vf), { recursive: true, force: true });
      await rm(join(devices, vf), { force: true });
      await unlink(join(pfDir, name));
    }
    const pf = parsePciAddress(basename(pfDir))!;
    const [offset, stride, vfDevice] = await Promise.all([
      number(join(pfDir, 'sriov_offset')),
      number(join(pfDir, 'sriov_stride')),
      text(join(pfDir, 'sriov_vf_device')),
    ]);
    for (let index = 0; index < wanted; index++) {
      const routingId = (pf.bus << 8) + (pf.device << 3) + pf.function + offset + index * stride;
      const address = formatPciAddress({ domain: pf.domain, bus: routingId >> 8, device: (routingId >> 3) & 0x1f, function: routingId & 7 });
      const vfDir = join(dirname(pfDir), address);
      await mkdir(vfDir, { recursive: true });
      for (const attribute of ['vendor', 'class', 'subsystem_vendor', 'subsystem_device', 'numa_node']) {
        await writeFile(join(vfDir, attribute), await readFile(join(pfDir, attribute)));
      }
      await writeFile(join(vfDir, 'device'), `0x${vfDevice}\n`);
      await writeFile(join(vfDir, 'driver_override'), '(null)\n');
      await symlink(relative(vfDir, pfDir), join(vfDir, 'physfn'));
      await symlink(relative(pfDir, vfDir), join(pfDir, `virtfn${index}`));
      if (!(await exists(join(devices, address)))) await symlink(relative(devices, vfDir), join(devices, address));
    }
    await writeFile(join(pfDir, 'sriov_numvfs'), `${wanted}\n`);
  }

  async function createMdev(typeDir: string, value: string): Promise<void> {
    const uuid = value.trim();
    const available = await number(join(typeDir, 'available_instances'));
    if (available < 1) throw errno('ENOSPC', `no instance of ${basename(typeDir)} left`);
    const mdevDir = join(dirname(dirname(typeDir)), uuid);
    if (await exists(mdevDir)) throw errno('EEXIST', `${uuid} exists`);
    await mkdir(mdevDir);
    await symlink(relative(mdevDir, typeDir), join(mdevDir, 'mdev_type'));
    await writeFile(join(mdevDir, 'remove'), '');
    await writeFile(join(typeDir, 'available_instances'), `${available - 1}\n`);
  }

  async function removeMdev(mdevDir: string): Promise<void> {
    const typeDir = await realpath(join(mdevDir, 'mdev_type'));
    await rm(mdevDir, { recursive: true });
    await writeFile(join(typeDir, 'available_instances'), `${(await number(join(typeDir, 'available_instances'))) + 1}\n`);
  }

  return async (path, value) => {
    const name = basename(path);
    const parent = dirname(path);
    if (name === 'drivers_probe') return probe(value.trim());
    if (name === 'unbind') return unbind(value.trim());
    if (name === 'sriov_numvfs') return setNumVfs(await realpath(parent), value);
    if (name === 'create' && basename(dirname(parent)) === 'mdev_supported_types') return createMdev(await realpath(parent), value);
    if (name === 'remove' && (await exists(join(parent, 'mdev_type')))) return removeMdev(await realpath(parent));
    if (name === 'driver_override') return writeFile(path, value.trim() === '' ? '(null)\n' : value);
    return writeFile(path, value);
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

const text = async (path: string) => (await readFile(path, 'utf8')).trim();
const number = async (path: string) => Number(await text(path));
