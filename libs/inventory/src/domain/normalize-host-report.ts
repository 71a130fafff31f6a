import { compareAttachHandles, compareStrings, defaultDeployableName, attachHandleKey } from './identity';
import {
  ATTACH_HANDLE_KINDS,
  DEVICE_TYPES,
  HOST_REPORT_LIMITS,
  STANDARD_RESOURCE_CLASSES,
  type HostReport,
  type ReportedAttachHandle,
  type ReportedDeployable,
  type ReportedDevice,
} from './host-report';
import { hostnameProblem } from './hostname';
import { ReportInvalidError, ReportTooLargeError } from './inventory.errors';

const PCI_ID = /^[0-9a-f]{4}$/;
/** Domain (4 hex digits, up to 8 behind VMD bridges), bus, device (0–1f), function (0–7). */
const PCI_ADDRESS = /^[0-9a-f]{4,8}:[0-9a-f]{2}:[01][0-9a-f]\.[0-7]$/;
const CUSTOM_RESOURCE_CLASS = /^CUSTOM_[A-Z0-9_]+$/;
const TRAIT = /^[A-Z][A-Z0-9_]*$/;
const MDEV_TYPE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Placement's limit on provider names. */
const MAX_PROVIDER_NAME = 200;
const MAX_PLACEMENT_TOTAL = 2_147_483_647;
const MAX_NAME = 255;

/**
 * Checks a host report against the domain rules and returns it in canonical
 * form: ids and PCI addresses in lower case, devices sorted by PCI address,
 * deployables named (Cyborg's default) and sorted by name, traits sorted and
 * unique, handles sorted, MDEV slots defaulted to 0, map keys sorted, unknown
 * members dropped. Throws ReportInvalidError (400) or ReportTooLargeError
 * (413) naming the offending path; the same report always normalises to the
 * same value, which is what makes report fingerprints comparable.
 */
export function normalizeHostReport(report: HostReport): HostReport {
  if (!isObject(report)) throw new ReportInvalidError('report', 'must be an object');
  const hostnameIssue = hostnameProblem(report.hostname);
  if (hostnameIssue) throw new ReportInvalidError('hostname', hostnameIssue, report.hostname);
  const devices = arrayOf(report.devices, 'devices', HOST_REPORT_LIMITS.devicesPerHost);
  const normalized = devices.map((device, index) => normalizeDevice(report.hostname, device, `devices[${index}]`));
  checkUniqueness(normalized);
  return {
    hostname: report.hostname,
    devices: normalized.map((entry) => entry.device).sort((a, b) => compareStrings(a.pciAddress, b.pciAddress)),
  };
}

interface NormalizedDeviceEntry {
  readonly device: ReportedDevice;
  readonly path: string;
  /** The path of each deployable of `device` in the report, by deployable name. */
  readonly deployablePaths: ReadonlyMap<string, string>;
  /** The path of each handle of `device` in the report, by deployable name and handle key. */
  readonly handlePaths: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

function normalizeDevice(hostname: string, device: ReportedDevice, path: string): NormalizedDeviceEntry {
  if (!isObject(device)) throw new ReportInvalidError(path, 'must be an object');
  const pciAddress = pciAddressAt(device.pciAddress, `${path}.pciAddress`);
  const deployables = arrayOf(device.deployables, `${path}.deployables`, HOST_REPORT_LIMITS.deployablesPerDevice);
  const deployablePaths = new Map<string, string>();
  const handlePaths = new Map<string, Map<string, string>>();
  const normalizedDeployables = deployables.map((deployable, index) => {
    const deployablePath = `${path}.deployables[${index}]`;
    const normalized = normalizeDeployable(hostname, pciAddress, deployable, deployablePath);
    if (deployablePaths.has(normalized.deployable.name!)) {
      throw new ReportInvalidError(
        `${deployablePath}.name`,
        `duplicates the name of ${deployablePaths.get(normalized.deployable.name!)}`,
        normalized.deployable.name,
      );
    }
    deployablePaths.set(normalized.deployable.name!, deployablePath);
    handlePaths.set(normalized.deployable.name!, normalized.handlePaths);
    return normalized.deployable;
  });
  return {
    path,
    deployablePaths,
    handlePaths,
    device: {
      type: oneOf(device.type, DEVICE_TYPES, `${path}.type`),
      vendorId: pciIdAt(device.vendorId, `${path}.vendorId`),
      productId: pciIdAt(device.productId, `${path}.productId`),
      subsystemVendorId: optional(device.subsystemVendorId, (value) => pciIdAt(value, `${path}.subsystemVendorId`)),
      subsystemProductId: optional(device.subsystemProductId, (value) => pciIdAt(value, `${path}.subsystemProductId`)),
      model: textAt(device.model, `${path}.model`, MAX_NAME),
      pciAddress,
      boardInfo: stringMapAt(device.boardInfo, `${path}.boardInfo`),
      vendorBoardInfo: optional(device.vendorBoardInfo, (value) => textAt(value, `${path}.vendorBoardInfo`, 4096, true)),
      driver: nullable(device.driver, (value) => textAt(value, `${path}.driver`, MAX_NAME)),
      numaNode: nullable(device.numaNode, (value) => integerAt(value, `${path}.numaNode`, 0, 4095)),
      capacity: optional(device.capacity, (value) => capacityAt(value, `${path}.capacity`)),
      deployables: normalizedDeployables.sort((a, b) => compareStrings(a.name!, b.name!)),
    },
  };
}

function normalizeDeployable(
  hostname: string,
  pciAddress: string,
  deployable: ReportedDeployable,
  path: string,
): { deployable: ReportedDeployable; handlePaths: Map<string, string> } {
  if (!isObject(deployable)) throw new ReportInvalidError(path, 'must be an object');
  const name =
    optional(deployable.name, (value) => textAt(value, `${path}.name`, MAX_PROVIDER_NAME)) ??
    defaultDeployableName(hostname, pciAddress);
  if (name.length > MAX_PROVIDER_NAME) {
    throw new ReportInvalidError(`${path}.name`, `defaults to "${name}", longer than ${MAX_PROVIDER_NAME} characters`);
  }
  const handles = arrayOf(deployable.attachHandles, `${path}.attachHandles`, HOST_REPORT_LIMITS.attachHandlesPerDeployable);
  const handlePaths = new Map<string, string>();
  const attachHandles = handles.map((handle, index) => {
    const handlePath = `${path}.attachHandles[${index}]`;
    const normalized = normalizeAttachHandle(handle, handlePath);
    const key = attachHandleKey(normalized);
    if (handlePaths.has(key)) {
      throw new ReportInvalidError(handlePath, `duplicates ${handlePaths.get(key)} (${key})`);
    }
    handlePaths.set(key, handlePath);
    return normalized;
  });
  return {
    handlePaths,
    deployable: {
      name,
      resourceClass: resourceClassAt(deployable.resourceClass, `${path}.resourceClass`),
      count: integerAt(deployable.count, `${path}.count`, 0, MAX_PLACEMENT_TOTAL),
      traits: traitsAt(deployable.traits, `${path}.traits`),
      driverName: optional(deployable.driverName, (value) => textAt(value, `${path}.driverName`, MAX_NAME)),
      attachHandles: attachHandles.sort(compareAttachHandles),
    },
  };
}

function normalizeAttachHandle(handle: ReportedAttachHandle, path: string): ReportedAttachHandle {
  if (!isObject(handle)) throw new ReportInvalidError(path, 'must be an object');
  const kind = oneOf(handle.kind, ATTACH_HANDLE_KINDS, `${path}.kind`);
  const mdev = kind === 'MDEV';
  if (!mdev && handle.mdevType != null) throw new ReportInvalidError(`${path}.mdevType`, `is only allowed on MDEV handles`);
  if (!mdev && handle.slot != null) throw new ReportInvalidError(`${path}.slot`, `is only allowed on MDEV handles`);
  if (mdev && handle.mdevType == null) throw new ReportInvalidError(`${path}.mdevType`, 'is required on MDEV handles');
  return {
    kind,
    address: pciAddressAt(handle.address, `${path}.address`),
    physicalNetwork: optional(handle.physicalNetwork, (value) => textAt(value, `${path}.physicalNetwork`, MAX_NAME)),
    mdevType: mdev ? patternAt(handle.mdevType, MDEV_TYPE, `${path}.mdevType`, 'must be an mdev type name (e.g. nvidia-35)') : undefined,
    slot: mdev ? (optional(handle.slot, (value) => integerAt(value, `${path}.slot`, 0, 65_535)) ?? 0) : undefined,
  };
}

/**
 * Rules across devices: a PCI address names one device, a deployable name one
 * Placement provider, and an attach handle can be handed out by one
 * deployable only (two binds must never reach the same function).
 */
function checkUniqueness(entries: readonly NormalizedDeviceEntry[]): void {
  const devicesByAddress = new Map<string, string>();
  const deployablesByName = new Map<string, string>();
  const handlesByKey = new Map<string, string>();
  for (const entry of entries) {
    const { device, path } = entry;
    const other = devicesByAddress.get(device.pciAddress);
    if (other) throw new ReportInvalidError(`${path}.pciAddress`, `duplicates ${other}.pciAddress`, device.pciAddress);
    devicesByAddress.set(device.pciAddress, path);
    for (const deployable of device.deployables) {
      const name = deployable.name!;
      const deployablePath = entry.deployablePaths.get(name)!;
      const namedBefore = deployablesByName.get(name);
      if (namedBefore) throw new ReportInvalidError(`${deployablePath}.name`, `duplicates the name of ${namedBefore}`, name);
      deployablesByName.set(name, deployablePath);
      for (const [key, handlePath] of entry.handlePaths.get(name)!) {
        const heldBy = handlesByKey.get(key);
        if (heldBy) throw new ReportInvalidError(handlePath, `duplicates ${heldBy} (${key}): a handle belongs to one deployable`);
        handlesByKey.set(key, handlePath);
      }
    }
  }
}

// ---- member rules ----

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function arrayOf<T>(value: readonly T[] | undefined, path: string, limit: number): readonly T[] {
  if (!Array.isArray(value)) throw new ReportInvalidError(path, 'must be an array', value);
  if (value.length > limit) throw new ReportTooLargeError(path, limit, value.length);
  return value;
}

function optional<T, R>(value: T | null | undefined, rule: (value: T) => R): R | undefined {
  return value === undefined || value === null ? undefined : rule(value);
}

function nullable<T, R>(value: T | null | undefined, rule: (value: T) => R): R | null {
  return value === undefined || value === null ? null : rule(value);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  if (!allowed.includes(value as T)) throw new ReportInvalidError(path, `must be one of ${allowed.join(', ')}`, value);
  return value as T;
}

function textAt(value: unknown, path: string, maxLength: number, allowEmpty = false): string {
  if (typeof value !== 'string') throw new ReportInvalidError(path, 'must be a string', value);
  if (!allowEmpty && value.length === 0) throw new ReportInvalidError(path, 'must not be empty');
  if (value.length > maxLength) throw new ReportInvalidError(path, `must be at most ${maxLength} characters`, value);
  return value;
}

function patternAt(value: unknown, pattern: RegExp, path: string, rule: string, maxLength = MAX_NAME): string {
  if (typeof value !== 'string' || value.length > maxLength || !pattern.test(value)) throw new ReportInvalidError(path, rule, value);
  return value;
}

const pciIdAt = (value: unknown, path: string): string =>
  patternAt(typeof value === 'string' ? value.toLowerCase() : value, PCI_ID, path, 'must be a 4-digit hex PCI id (e.g. 10de)');

const pciAddressAt = (value: unknown, path: string): string =>
  patternAt(
    typeof value === 'string' ? value.toLowerCase() : value,
    PCI_ADDRESS,
    path,
    'must be a PCI address domain:bus:device.function (e.g. 0000:3b:00.0)',
  );

function integerAt(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ReportInvalidError(path, `must be an integer from ${min} to ${max}`, value);
  }
  return value;
}

function resourceClassAt(value: unknown, path: string): string {
  const standard = (STANDARD_RESOURCE_CLASSES as readonly unknown[]).includes(value);
  if (standard) return value as string;
  return patternAt(value, CUSTOM_RESOURCE_CLASS, path, `must be ${STANDARD_RESOURCE_CLASSES.join(', ')} or CUSTOM_[A-Z0-9_]+`);
}

function traitsAt(value: unknown, path: string): readonly string[] {
  const traits = arrayOf(value as readonly unknown[] | undefined, path, HOST_REPORT_LIMITS.traitsPerDeployable);
  const checked = traits.map((trait, index) => patternAt(trait, TRAIT, `${path}[${index}]`, 'must be a trait name ([A-Z][A-Z0-9_]*)'));
  return [...new Set(checked)].sort(compareStrings);
}

function stringMapAt(value: unknown, path: string): Readonly<Record<string, string>> {
  return sortedMap(value, path, HOST_REPORT_LIMITS.boardInfoEntries, (member, memberPath) => textAt(member, memberPath, 1024, true));
}

function capacityAt(value: unknown, path: string): Readonly<Record<string, number>> {
  return sortedMap(value, path, HOST_REPORT_LIMITS.capacityEntries, (member, memberPath) => {
    if (typeof member !== 'number' || !Number.isFinite(member) || member < 0) {
      throw new ReportInvalidError(memberPath, 'must be a finite number ≥ 0', member);
    }
    return member;
  });
}

function sortedMap<V>(
  value: unknown,
  path: string,
  limit: number,
  rule: (member: unknown, path: string) => V,
): Readonly<Record<string, V>> {
  if (!isObject(value)) throw new ReportInvalidError(path, 'must be an object of named values', value);
  const keys = Object.keys(value).sort(compareStrings);
  if (keys.length > limit) throw new ReportTooLargeError(path, limit, keys.length);
  return Object.fromEntries(
    keys.map((key) => {
      if (key.length === 0 || key.length > 64) throw new ReportInvalidError(path, 'keys must be 1 to 64 characters', key);
      return [key, rule(value[key], `${path}.${key}`)];
    }),
  );
}
