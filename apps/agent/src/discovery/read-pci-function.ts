import { join } from 'node:path';
import { normalizePciAddress } from './pci-address';
import type { MdevInstance, MdevType, PciFunction } from './pci-function';
import {
  hasValue,
  problemOf,
  readEntryLines,
  readEntryLink,
  readEntryNames,
  readEntryText,
  resolveEntryDirectory,
  type EntryRead,
} from './sysfs-entries';

/** Says that one entry was skipped and why; the reader turns it into a warning. */
export type SkipNotice = (path: string, problem: string) => void;

const PCI_ID = /^0x([0-9a-f]{4})$/i;
const PCI_CLASS = /^0x([0-9a-f]{6})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VIRTFN = /^virtfn(\d+)$/;
const COUNT = /^\d{1,9}$/;

/**
 * Reads `<devices>/<name>` into a PciFunction. An entry without a usable
 * identity (not an address, dangling, no readable vendor/device/class) is
 * skipped as a whole; an odd optional part (NUMA node, a VF link, an mdev
 * type…) is left out and the rest kept. Each skip is noticed; nothing throws.
 */
export async function readPciFunction(entryPath: string, name: string, skip: SkipNotice): Promise<PciFunction | undefined> {
  const address = normalizePciAddress(name);
  if (address === undefined) return skipped(skip, entryPath, `"${name}" is not a PCI address`);
  const directory = await resolveEntryDirectory(entryPath);
  if (!hasValue(directory)) return skipped(skip, entryPath, problemOf(directory) ?? 'vanished while being read');
  const dir = directory.value;

  const [vendor, product, classCode] = await Promise.all([
    requiredMatch(dir, 'vendor', PCI_ID, 'a PCI vendor id (0x10de)'),
    requiredMatch(dir, 'device', PCI_ID, 'a PCI device id (0x20b5)'),
    requiredMatch(dir, 'class', PCI_CLASS, 'a PCI class (0x030200)'),
  ]);
  for (const field of [vendor, product, classCode]) {
    if ('problem' in field) return skipped(skip, join(entryPath, field.entry), field.problem);
  }
  const physfn = await readEntryLink(join(dir, 'physfn'));
  if ('problem' in physfn) return skipped(skip, join(entryPath, 'physfn'), `${physfn.problem}: cannot tell which PF this VF belongs to`);

  const [subsystemVendorId, subsystemProductId, driver, numaNode, sriov, virtualFunctions, mdevTypes, mdevs, netInterfaces, aer] =
    await Promise.all([
      optionalId(dir, 'subsystem_vendor', skip),
      optionalId(dir, 'subsystem_device', skip),
      boundDriver(dir, skip),
      numa(dir, skip),
      sriovCapability(dir, skip),
      virtualFunctionAddresses(dir, skip),
      supportedMdevTypes(dir, skip),
      existingMdevs(dir, skip),
      namesIn(join(dir, 'net'), skip),
      aerTotals(dir, skip),
    ]);
  return {
    address,
    path: dir,
    classCode: (classCode as Matched).value,
    vendorId: (vendor as Matched).value,
    productId: (product as Matched).value,
    subsystemVendorId,
    subsystemProductId,
    driver,
    numaNode,
    sriov,
    virtualFunctions,
    physicalFunction: hasValue(physfn) ? (normalizePciAddress(physfn.value.name) ?? null) : null,
    mdevTypes,
    mdevs,
    netInterfaces,
    aer,
  };
}

function skipped(skip: SkipNotice, path: string, problem: string): undefined {
  skip(path, problem);
  return undefined;
}

type Matched = { readonly value: string };

async function requiredMatch(
  dir: string,
  entry: string,
  pattern: RegExp,
  expected: string,
): Promise<Matched | { readonly entry: string; readonly problem: string }> {
  const read = await readEntryText(join(dir, entry));
  if ('missing' in read) return { entry, problem: 'missing' };
  if ('problem' in read) return { entry, problem: read.problem };
  const match = pattern.exec(read.value);
  return match ? { value: match[1].toLowerCase() } : { entry, problem: `${JSON.stringify(clip(read.value))} is not ${expected}` };
}

async function optionalId(dir: string, entry: string, skip: SkipNotice): Promise<string | null> {
  const read = await readEntryText(join(dir, entry));
  if (!hasValue(read)) return noticed(skip, join(dir, entry), read, null);
  const match = PCI_ID.exec(read.value);
  if (match) return match[1].toLowerCase();
  skip(join(dir, entry), `${JSON.stringify(clip(read.value))} is not a PCI id; left out`);
  return null;
}

async function boundDriver(dir: string, skip: SkipNotice): Promise<string | null> {
  const link = await readEntryLink(join(dir, 'driver'));
  if (hasValue(link)) return link.value.name;
  return noticed(skip, join(dir, 'driver'), link, null, 'reported as unbound');
}

async function numa(dir: string, skip: SkipNotice): Promise<number | null> {
  const read = await readEntryText(join(dir, 'numa_node'));
  if (!hasValue(read)) return noticed(skip, join(dir, 'numa_node'), read, null);
  if (read.value === '-1') return null;
  if (COUNT.test(read.value) && Number(read.value) <= 4095) return Number(read.value);
  skip(join(dir, 'numa_node'), `${JSON.stringify(clip(read.value))} is not a NUMA node; reported as unknown`);
  return null;
}

async function sriovCapability(dir: string, skip: SkipNotice): Promise<PciFunction['sriov']> {
  const [total, current] = await Promise.all([readEntryText(join(dir, 'sriov_totalvfs')), readEntryText(join(dir, 'sriov_numvfs'))]);
  if ('missing' in total) return null;
  if (!hasValue(total) || !COUNT.test(total.value)) {
    skip(join(dir, 'sriov_totalvfs'), `${hasValue(total) ? JSON.stringify(clip(total.value)) : problemOf(total)}: SR-IOV left out`);
    return null;
  }
  if (!hasValue(current) || !COUNT.test(current.value)) {
    const what = hasValue(current) ? JSON.stringify(clip(current.value)) : (problemOf(current) ?? 'missing');
    skip(join(dir, 'sriov_numvfs'), `${what}: SR-IOV left out`);
    return null;
  }
  return { totalVfs: Number(total.value), numVfs: Number(current.value) };
}

async function virtualFunctionAddresses(dir: string, skip: SkipNotice): Promise<string[]> {
  const names = await readEntryNames(dir);
  if (!hasValue(names)) return [];
  const links = names.value
    .map((name) => ({ name, index: VIRTFN.exec(name)?.[1] }))
    .filter((entry): entry is { name: string; index: string } => entry.index !== undefined)
    .sort((a, b) => Number(a.index) - Number(b.index));
  const addresses = await Promise.all(
    links.map(async ({ name }) => {
      const link = await readEntryLink(join(dir, name));
      if (!hasValue(link)) return noticed(skip, join(dir, name), link, undefined, 'VF left out');
      const address = normalizePciAddress(link.value.name);
      if (address === undefined) skip(join(dir, name), `points to "${link.value.name}", not a PCI function; VF left out`);
      return address;
    }),
  );
  return addresses.filter((address): address is string => address !== undefined);
}

async function supportedMdevTypes(dir: string, skip: SkipNotice): Promise<MdevType[]> {
  const typesDir = join(dir, 'mdev_supported_types');
  const ids = await namesIn(typesDir, skip);
  const types = await Promise.all(
    ids.map(async (id): Promise<MdevType | undefined> => {
      const [name, available, deviceApi] = await Promise.all([
        readEntryText(join(typesDir, id, 'name')),
        readEntryText(join(typesDir, id, 'available_instances')),
        readEntryText(join(typesDir, id, 'device_api')),
      ]);
      if (!hasValue(available) || !COUNT.test(available.value)) {
        const what = hasValue(available) ? JSON.stringify(clip(available.value)) : (problemOf(available) ?? 'missing');
        skip(join(typesDir, id, 'available_instances'), `${what}: mdev type ${id} left out`);
        return undefined;
      }
      return {
        id,
        name: hasValue(name) ? name.value : null,
        availableInstances: Number(available.value),
        deviceApi: hasValue(deviceApi) ? deviceApi.value : null,
      };
    }),
  );
  return types.filter((type): type is MdevType => type !== undefined);
}

async function existingMdevs(dir: string, skip: SkipNotice): Promise<MdevInstance[]> {
  const names = await readEntryNames(dir);
  if (!hasValue(names)) return [];
  const mdevs = await Promise.all(
    names.value
      .filter((name) => UUID.test(name))
      .map(async (uuid): Promise<MdevInstance | undefined> => {
        const link = await readEntryLink(join(dir, uuid, 'mdev_type'));
        if (hasValue(link)) return { uuid: uuid.toLowerCase(), type: link.value.name };
        return noticed(skip, join(dir, uuid, 'mdev_type'), link, undefined, 'mdev left out', true);
      }),
  );
  return mdevs.filter((mdev): mdev is MdevInstance => mdev !== undefined);
}

async function aerTotals(dir: string, skip: SkipNotice): Promise<PciFunction['aer']> {
  const [fatal, nonFatal] = await Promise.all([
    aerTotal(join(dir, 'aer_dev_fatal'), 'TOTAL_ERR_FATAL', skip),
    aerTotal(join(dir, 'aer_dev_nonfatal'), 'TOTAL_ERR_NONFATAL', skip),
  ]);
  return fatal === undefined && nonFatal === undefined ? null : { fatal: fatal ?? 0, nonFatal: nonFatal ?? 0 };
}

/** `aer_dev_fatal` holds one `<ERROR> <count>` line per error kind and a `TOTAL_ERR_FATAL <n>` line (sysfs-bus-pci-devices-aer_stats). */
async function aerTotal(path: string, totalKey: string, skip: SkipNotice): Promise<number | undefined> {
  const read = await readEntryLines(path);
  if (!hasValue(read)) return noticed(skip, path, read, undefined);
  const total = read.value.map((line) => line.split(/\s+/)).find(([key]) => key === totalKey);
  if (total && COUNT.test(total[1] ?? '')) return Number(total[1]);
  skip(path, `has no ${totalKey} count; AER totals left out`);
  return undefined;
}

async function namesIn(path: string, skip: SkipNotice): Promise<string[]> {
  const names = await readEntryNames(path);
  return hasValue(names) ? names.value : noticed(skip, path, names, []);
}

/**
 * The fallback for an optional entry: silent when it is simply absent
 * (most functions have no SR-IOV, no mdev types, no driver bound), noticed
 * when it is there but unusable — or, with `missingIsOdd`, absent where it
 * must exist.
 */
function noticed<T>(skip: SkipNotice, path: string, read: EntryRead<unknown>, fallback: T, consequence?: string, missingIsOdd = false): T {
  const problem = problemOf(read) ?? (missingIsOdd ? 'missing' : undefined);
  if (problem !== undefined) skip(path, consequence ? `${problem}; ${consequence}` : problem);
  return fallback;
}

const clip = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);
