import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { DiscoveryLogger } from './discovery-logger';
import { normalizePciAddress } from './pci-address';
import type { PciFunction } from './pci-function';
import { readPciFunction } from './read-pci-function';
import { hasValue, problemOf, readEntryNames } from './sysfs-entries';

/** Writes one sysfs attribute. The kernel acts on the write (bind, create VFs…); tests emulate that. */
export type SysfsWrite = (path: string, value: string) => Promise<void>;

export interface SysfsReaderOptions {
  /** The sysfs mount point; default `/sys`. Tests pass a fixture tree. */
  readonly root?: string;
  /** Every skipped entry is one warning here. */
  readonly logger: DiscoveryLogger;
  /** How attributes are written; default `fs.writeFile`. */
  readonly write?: SysfsWrite;
  /**
   * How long one scan of the PCI bus is shared (ms; default 1000), so the
   * drivers discovering in one pass read the bus once and warn once. Any
   * write through this reader ends the sharing at once.
   */
  readonly scanReuseMs?: number;
  /** Clock for scan reuse; default Date.now. */
  readonly now?: () => number;
}

/**
 * The agent's one view of sysfs: scans `<root>/bus/pci/devices/*` into
 * PciFunctions (odd or unreadable entries are skipped with a warning, never
 * thrown) and carries out the few writes driver operations make.
 */
export class SysfsReader {
  readonly root: string;
  private readonly logger: DiscoveryLogger;
  private readonly writeAttribute: SysfsWrite;
  private readonly scanReuseMs: number;
  private readonly now: () => number;
  private lastScan?: { readonly at: number; readonly functions: Promise<readonly PciFunction[]> };

  constructor(options: SysfsReaderOptions) {
    this.root = options.root ?? '/sys';
    this.logger = options.logger;
    this.writeAttribute = options.write ?? ((path, value) => writeFile(path, value));
    this.scanReuseMs = options.scanReuseMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /** `<root>/bus/pci/devices`. */
  get pciDevicesDir(): string {
    return join(this.root, 'bus', 'pci', 'devices');
  }

  /** `<root>/bus/pci/devices/<address>`: where a function's attributes are read and written. */
  functionPath(address: string): string {
    return join(this.pciDevicesDir, address);
  }

  /** Every readable PCI function, sorted by address. */
  scanPci(): Promise<readonly PciFunction[]> {
    const at = this.now();
    if (this.lastScan && at - this.lastScan.at < this.scanReuseMs) return this.lastScan.functions;
    const functions = this.readAll();
    this.lastScan = { at, functions };
    return functions;
  }

  /** One function read afresh (operations must not act on a shared, older scan); undefined when absent or unreadable. */
  async readFunction(address: string): Promise<PciFunction | undefined> {
    const canonical = normalizePciAddress(address);
    if (canonical === undefined) return undefined;
    return readPciFunction(this.functionPath(canonical), canonical, (path, problem) => this.warnSkipped(path, problem));
  }

  /** Writes `value` to a path under the root (absolute, or relative to the root). Throws what the kernel refused. */
  async write(path: string, value: string): Promise<void> {
    this.lastScan = undefined;
    await this.writeAttribute(isAbsolute(path) ? path : join(this.root, path), value);
  }

  /** Forget the shared scan, e.g. after something outside this reader changed the bus. */
  invalidate(): void {
    this.lastScan = undefined;
  }

  /** Warns about an entry a driver found odd while reading its own extras (region ids, QAT state…). */
  warnSkipped(path: string, problem: string): void {
    this.logger.warn(`sysfs: skipped ${this.shown(path)}: ${problem}`);
  }

  private async readAll(): Promise<readonly PciFunction[]> {
    const names = await readEntryNames(this.pciDevicesDir);
    if (!hasValue(names)) {
      this.warnSkipped(this.pciDevicesDir, `${problemOf(names) ?? 'missing'}; no PCI device can be discovered`);
      return [];
    }
    const functions = await Promise.all(
      names.value.map((name) => readPciFunction(join(this.pciDevicesDir, name), name, (path, problem) => this.warnSkipped(path, problem))),
    );
    return functions
      .filter((fn): fn is PciFunction => fn !== undefined)
      .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  }

  private shown(path: string): string {
    const inside = relative(this.root, path);
    return this.root === '/sys' || inside.startsWith('..') ? path : `<sysfs>/${inside}`;
  }
}
