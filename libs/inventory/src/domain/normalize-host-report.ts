import { compareAttachHandles, compareStrings, defaultDeployableName, attachHandleKey } from './identity';
import {
  ATTACH_HANDLE_KINDS,
  DEVICE_TYPES,
  HOST_REPORT_LIMITS,
  type HostReport,
  type ReportedAttachHandle,
  type ReportedDeployable,
  type ReportedDevice,
} from './host-report';
import { hostnameProblem } from './hostname';
import { ReportInvalidError } from './inventory.errors';
import { normalizePartitioning } from './partitioning/normalize-partitioning';
import { partitionDeployables } from './partitioning/partition-deployables';
import {
  arrayOf,
  capacityAt,
  integerAt,
  isObject,
  MAX_NAME,
  nullable,
  oneOf,
  optional,
  patternAt,
  pciAddressAt,
  pciIdAt,
  resourceClassAt,
  stringMapAt,
  textAt,
  traitsAt,
} from './report-member-rules';

const MDEV_TYPE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Placement's limit on provider names. */
const MAX_PROVIDER_NAME = 200;
const MAX_PLACEMENT_TOTAL = 2_147_483_647;

/**
 * Checks a host report against the domain rules and returns it in canonical
 * form: ids and PCI addresses in lower case, devices sorted by PCI address,
 * deployables named (Cyborg's default) and sorted by name, traits sorted and
 * unique, handles sorted, MDEV slots defaulted to 0, map keys sorted, unknown
 * members dropped. Throws ReportInvalidError (400) or ReportTooLargeError
 * (413) naming the offending path; the same report always normalises to the
 * same value, and a normalised report to itself, which is what makes report
 * fingerprints comparable.
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
  const partitioning = optional(device.partitioning, (value) => normalizePartitioning(value, `${path}.partitioning`));
  const derived = partitioning ? partitionDeployables(defaultDeployableName(hostname, pciAddress), pciAddress, partitioning) : [];
  // A report normalised before (the agent sends what it normalised) carries the derived deployables: they are derived again.
  const derivedNames = new Set(derived.map((deployable) => deployable.name));
  const deployables = arrayOf(device.deployables, `${path}.deployables`, HOST_REPORT_LIMITS.deployablesPerDevice + derived.length).filter(
    (deployable) => !(isObject(deployable) && derivedNames.has(deployable.name as string)),
  );
  const deployablePaths = new Map<string, string>();
  const handlePaths = new Map<string, Map<string, string>>();
  const normalizedDeployables = [...deployables, ...derived].map((deployable, index) => {
    const fromPartitioning = index >= deployables.length;
    const deployablePath = fromPartitioning ? `${path}.partitioning` : `${path}.deployables[${index}]`;
    const normalized = normalizeDeployable(hostname, pciAddress, deployable, deployablePath, fromPartitioning);
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
      ...(partitioning ? { partitioning } : {}),
      deployables: normalizedDeployables.sort((a, b) => compareStrings(a.name!, b.name!)),
    },
  };
}

function normalizeDeployable(
  hostname: string,
  pciAddress: string,
  deployable: ReportedDeployable,
  path: string,
  fromPartitioning = false,
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
    const normalized = normalizeAttachHandle(handle, handlePath, fromPartitioning);
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

/** A partition's handle (MIG, REGION, or an MDEV naming its partition) comes only from `partitioning`. */
function normalizeAttachHandle(handle: ReportedAttachHandle, path: string, fromPartitioning: boolean): ReportedAttachHandle {
  if (!isObject(handle)) throw new ReportInvalidError(path, 'must be an object');
  const kind = oneOf(handle.kind, ATTACH_HANDLE_KINDS, `${path}.kind`);
  if (!fromPartitioning && (kind === 'MIG' || kind === 'REGION' || handle.partition != null)) {
    throw new ReportInvalidError(path, 'a partition\'s handle is reported in the device\'s partitioning, not in a deployable', kind);
  }
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
    ...(fromPartitioning ? { partition: handle.partition } : {}),
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
