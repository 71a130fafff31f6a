import { DEVICE_TYPES, type DeviceType } from '@ledger/inventory';
import type { PciFunction } from '../../discovery/pci-function';
import type { DriverSettings } from '../driver-settings';

/** One allow-list entry, Nova's passthrough_whitelist in short: `vendor:product[,class]`, `*` for any product. */
export interface PciAllowEntry {
  readonly vendorId: string;
  /** null: any product of the vendor. */
  readonly productId: string | null;
  /** A prefix of the 6-digit class (`03`, `0302`), or null. */
  readonly classPrefix: string | null;
  /** What the device is reported as; null: from its class. */
  readonly type: DeviceType | null;
}

const ENTRY = /^([0-9a-f]{4}):([0-9a-f]{4}|\*)(?:,([0-9a-f]{2}|[0-9a-f]{4}|[0-9a-f]{6}))?$/;

/**
 * `allow`: a list of `"10de:1eb8"`, `"1da3:*,12"` or
 * `{"match": "1da3:*,12", "type": "NPU"}`. Invalid entries stop start-up.
 */
export function parseAllowList(settings: DriverSettings): PciAllowEntry[] {
  const raw = settings.raw('allow') ?? [];
  if (!Array.isArray(raw)) settings.fail(settings.at('allow'), 'must be a list of "vendor:product[,class]" entries');
  return raw.map((item: unknown, index: number) => {
    const path = `${settings.at('allow')}[${index}]`;
    const { match, type } = typeof item === 'string' ? { match: item, type: undefined } : ((item ?? {}) as { match?: unknown; type?: unknown });
    const parsed = typeof match === 'string' ? ENTRY.exec(match.trim().toLowerCase()) : null;
    if (!parsed) settings.fail(path, `must be "vendor:product[,class]" in hex, product may be * (got ${JSON.stringify(match)})`);
    if (type !== undefined && !(DEVICE_TYPES as readonly unknown[]).includes(type)) settings.fail(`${path}.type`, `must be one of ${DEVICE_TYPES.join(', ')}`);
    if (typeof item === 'object' && item !== null && Object.keys(item).some((key) => key !== 'match' && key !== 'type')) {
      settings.fail(path, 'may only have "match" and "type"');
    }
    return { vendorId: parsed[1], productId: parsed[2] === '*' ? null : parsed[2], classPrefix: parsed[3] ?? null, type: (type as DeviceType | undefined) ?? null };
  });
}

export function allowEntryFor(fn: PciFunction, allowList: readonly PciAllowEntry[]): PciAllowEntry | undefined {
  return allowList.find(
    (entry) =>
      entry.vendorId === fn.vendorId &&
      (entry.productId === null || entry.productId === fn.productId) &&
      (entry.classPrefix === null || fn.classCode.startsWith(entry.classPrefix)),
  );
}

/** What a device is when the entry does not say: by PCI base class; Cyborg's pci driver called everything a GPU, which stays the fallback. */
export function deviceTypeByClass(fn: PciFunction): DeviceType {
  if (fn.classCode.startsWith('02')) return 'NIC';
  if (fn.classCode.startsWith('12')) return 'NPU';
  if (fn.classCode.startsWith('1080') || fn.classCode.startsWith('0b40')) return 'QAT';
  return 'GPU';
}
