import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DeviceHealthCause, ReportedDevice } from '@ledger/inventory';
import { DriverOperationError, type AcceleratorDriver, type DeviceHealthSample, type JobEvidence, type JobParams } from '../accelerator-driver';
import type { DriverContext } from '../driver-context';
import { type AttachableDevice, attachTarget, detachTarget } from '../pci/attach-target';
import { DRIVER_ERROR_CODES, invalidParams, untouched } from '../driver-errors';
import {
  carveParams,
  type CleanHandleParam,
  cleanHandles,
  imageParam,
  integerParam,
  nameParam,
  optionalIntegerParam,
  partitionHandleParam,
  pciAddressParam,
  programTargetParam,
  uuidParam,
} from '../job-params';
import { mulberry32, hash32, unitFrom } from './seeded-random';
import {
  buildSimulatedDevices,
  hostDriverOf,
  regionInterfaceId,
  regionOfVf,
  SIMULATED_IDS,
  renderSimulatedDevice,
  SIMULATED_TOTAL_VFS,
  vfAddresses,
  type SimulatedDevice,
} from './simulated-host';
import type { SimulatedOperation, SimulatedSettings } from './simulated.settings';
import { carveMig, migSpanAt, type SimulatedMig } from './simulated-mig';
import { simulatedMigStore } from './simulated-mig-store';

type Health = DeviceHealthSample['health'];
type HealthFinding = Pick<DeviceHealthSample, 'health' | 'reason' | 'cause'>;

/** The simulated driver, plus run-time controls for tests and demos. */
export interface SimulatedDriver extends AcceleratorDriver {
  /** Fail the next `count` calls of an operation (added to what is pending). */
  failNext(operation: SimulatedOperation, count?: number): void;
  /** Hold a device (key `gpu0` or its PCI address) at a health, with a cause if given, until cleared; null clears. */
  setHealth(device: string, health: Health | null, reason?: string, cause?: DeviceHealthCause): void;
  /** Keys and addresses of the simulated devices. */
  devices(): { readonly key: string; readonly pciAddress: string }[];
}

/** The function id a simulated region reads back once loaded with an image: derived from its bytes, so tests can register a bitstream that declares it. */
export const simulatedFunctionId = (sha256: string): string => createHash('sha256').update(`function|${sha256}`).digest('hex').slice(0, 32);
/** The interface id a simulated shell offers once loaded with an image: named by its content, as a real shell's is by its build. */
export const simulatedInterfaceId = (sha256: string): string => createHash('sha256').update(`interface|${sha256}`).digest('hex').slice(0, 32);

/**
 * A host without hardware: FPGAs with PR regions and VFs, GPUs (PGPU or
 * vGPU), NICs with VFs — the same for the same seed. What tests, demos and
 * the scale run use, so discovery is a cached picture that only
 * operations change. Every operation can be slowed (latencyMs) and made
 * to fail (failureRate drawn from the seed, failNext); a failed operation
 * leaves its device as it was and says so, like the real drivers.
 */
export function simulatedDriver(context: DriverContext, settings: SimulatedSettings): SimulatedDriver {
  const devices = buildSimulatedDevices(settings);
  const pendingFailures = new Map<SimulatedOperation, number>(Object.entries(settings.failNext) as [SimulatedOperation, number][]);
  const heldHealth = new Map<string, HealthFinding>();
  const failureDraws = mulberry32(hash32(`${settings.seed}|failures`));
  let picture: ReportedDevice[] | null = null;
  let checks = 0;

  const migStore = settings.persistMig ? simulatedMigStore(join(context.workDir, 'mig.json')) : null;
  for (const device of devices) device.mig?.partitions.push(...(migStore?.load(device.address) ?? []));

  const changed = () => (picture = null);
  const migChanged = () => {
    changed();
    migStore?.save(new Map(devices.flatMap((device) => (device.mig ? [[device.address, device.mig] as const] : []))));
  };

  /** Whether this call of the operation is to fail (failNext first, then the seeded rate). */
  function failing(operation: SimulatedOperation): boolean {
    const pending = pendingFailures.get(operation) ?? 0;
    if (pending > 0) {
      pendingFailures.set(operation, pending - 1);
      return true;
    }
    return settings.failureRate[operation] > 0 && failureDraws() < settings.failureRate[operation];
  }

  /** Waits the operation's latency, then says whether this call is to fail. */
  async function begin(operation: SimulatedOperation): Promise<boolean> {
    if (settings.latencyMs[operation] > 0) await context.sleep(settings.latencyMs[operation]);
    return failing(operation);
  }

  /**
   * A carve or destroy changes the GPU halfway through its latency and
   * answers after the rest, as the NVIDIA driver reads the layout back after
   * nvidia-smi changed it: an agent killed in between leaves the change made
   * and unanswered (the crash suite's case). A failure takes the whole
   * latency and changes nothing.
   */
  async function partitionChange<T>(operation: 'carve' | 'destroy', failure: () => Error, change: () => T): Promise<T> {
    const before = Math.ceil(settings.latencyMs[operation] / 2);
    const after = settings.latencyMs[operation] - before;
    if (before > 0) await context.sleep(before);
    const fails = failing(operation);
    const result = fails ? undefined : change();
    if (after > 0) await context.sleep(after);
    if (fails) throw failure();
    return result as T;
  }

  const injected = (operation: string, deviceState: string, evidence: JobEvidence = {}) =>
    new DriverOperationError(DRIVER_ERROR_CODES.injectedFailure, `simulated ${operation} failure`, deviceState, evidence);

  function deviceAt(address: string, kinds?: readonly SimulatedDevice['kind'][]): { device: SimulatedDevice; vfIndex: number | null } {
    for (const device of devices) {
      if (kinds && !kinds.includes(device.kind)) continue;
      if (device.address === address) return { device, vfIndex: null };
      const vfIndex = vfAddresses(device).indexOf(address);
      if (vfIndex >= 0) return { device, vfIndex };
    }
    throw untouched(DRIVER_ERROR_CODES.deviceNotFound, `no simulated ${kinds?.join(' or ') ?? 'device'} at ${address}`);
  }

  /** The device's PCI and VF handles, as its report shows them now. */
  const attachableOf = (device: SimulatedDevice): AttachableDevice => ({
    address: device.address,
    handles: renderSimulatedDevice(device, settings, context.hostname)
      .deployables.flatMap((deployable) => deployable.attachHandles)
      .filter((handle) => handle.kind !== 'MDEV')
      .map((handle) => handle.address),
  });

  function healthOf(device: SimulatedDevice, check: number): HealthFinding {
    const held = heldHealth.get(device.key) ?? heldHealth.get(device.address);
    if (held) return held;
    const scripted = settings.degradations.find(
      (entry) => entry.device === device.key && check >= entry.fromCheck && (entry.toCheck === null || check <= entry.toCheck),
    );
    if (!scripted) return { health: 'ok', reason: null };
    return { health: scripted.health, reason: scripted.reason, ...(scripted.cause ? { cause: scripted.cause } : {}) };
  }

  function telemetryOf(device: SimulatedDevice, check: number): Record<string, number> {
    const draw = (name: string) => unitFrom(`${settings.seed}|${device.address}|${check}|${name}`);
    const telemetry: Record<string, number> = {
      utilizationPct: Math.round(draw('utilization') * 100),
      temperatureC: 35 + Math.round(draw('temperature') * 45),
      powerW: Math.round((40 + draw('power') * 260) * 10) / 10,
    };
    if (device.kind === 'gpu') telemetry.memoryUsedGiB = Math.round(draw('memory') * 800) / 10;
    return telemetry;
  }

  /**
   * Loading a shell replaces the static region: the regions behind it come
   * up blank and offer the new shell's interface ids. A failure leaves the
   * old shell and its regions as they were.
   */
  async function programShell(device: SimulatedDevice, sha256: string): Promise<JobEvidence> {
    const shell = device.shell!;
    const previousInterfaceId = shell.interfaceId;
    if (await begin('program')) throw injected('shell program', `previous shell ${previousInterfaceId} still loaded`, { interfaceId: previousInterfaceId, previousInterfaceId });
    // Like function ids, the interface id a simulated shell image offers is named by its content.
    const interfaceId = simulatedInterfaceId(sha256);
    device.shell = { interfaceId, sha256 };
    device.regions.forEach((region, index) => Object.assign(region, { interfaceId: regionInterfaceId(interfaceId, index), functionId: null }));
    changed();
    return { target: 'shell', interfaceId, previousInterfaceId, sha256, regionsCleared: device.regions.length };
  }

  return {
    name: 'simulated',
    playbooks: context.playbooks,

    async discover() {
      if (await begin('discover')) throw new Error('simulated discovery failure');
      picture ??= devices.map((device) => renderSimulatedDevice(device, settings, context.hostname));
      return picture;
    },

    async health() {
      if (await begin('health')) throw new Error('simulated health check failure');
      checks += 1;
      return devices.map((device) => ({ pciAddress: device.address, ...healthOf(device, checks), telemetry: telemetryOf(device, checks) }));
    },

    async program(params: JobParams): Promise<JobEvidence> {
      const { device, vfIndex } = deviceAt(pciAddressParam(params), ['fpga']);
      const image = imageParam(params);
      if (programTargetParam(params) === 'shell') return programShell(device, image.sha256);
      // The job names the region (its index, or `region<index>` as a region partition's id), or the VF that serves it; else the first.
      const region = regionParam(params, device.regions.length) ?? (vfIndex === null ? 0 : regionOfVf(device, vfIndex));
      const previousFunctionId = device.regions[region].functionId;
      if (await begin('program')) {
        throw injected('program', previousFunctionId ? `previous function ${previousFunctionId} restored` : 'region left blank, as before', {
          functionId: previousFunctionId,
          previousFunctionId,
          restored: previousFunctionId !== null,
          region,
        });
      }
      // The function a simulated image loads is named by its content, so one image always loads one function.
      const functionId = simulatedFunctionId(image.sha256);
      device.regions[region].functionId = functionId;
      changed();
      return { functionId, sha256: image.sha256, previousFunctionId, region };
    },

    async probe(params: JobParams): Promise<JobEvidence> {
      const address = pciAddressParam(params);
      const { device } = deviceAt(address);
      if (await begin('probe')) {
        throw new DriverOperationError(DRIVER_ERROR_CODES.unreachable, `simulated probe failure: ${address} does not answer`, 'unchanged', { pciAddress: address });
      }
      const driver = device.passedThrough.has(address) ? 'vfio-pci' : hostDriverOf(device, address);
      const instanceUuid = params.instanceUuid === undefined ? {} : { instanceUuid: uuidParam(params, 'instanceUuid') };
      return { pciAddress: address, vendorId: SIMULATED_IDS[device.kind].vendorId, productId: SIMULATED_IDS[device.kind].productId, driver, ...instanceUuid };
    },

    async configureVfs(params: JobParams): Promise<JobEvidence> {
      const { device, vfIndex } = deviceAt(pciAddressParam(params), ['fpga', 'nic']);
      if (vfIndex !== null) throw invalidParams(`${vfAddresses(device)[vfIndex]} is a VF; configure-vfs takes the PF ${device.address}`);
      const numVfs = integerParam(params, 'numVfs', 0, SIMULATED_TOTAL_VFS);
      const previousNumVfs = device.numVfs;
      if (numVfs === previousNumVfs) return { numVfs, previousNumVfs, changed: false };
      const held = vfAddresses(device).filter((address) => device.passedThrough.has(address));
      if (held.length > 0) throw untouched(DRIVER_ERROR_CODES.deviceBusy, `VF(s) ${held.join(', ')} of ${device.address} are passed through; detach them first`);
      if (await begin('configureVfs')) throw injected('configure-vfs', `${previousNumVfs} VF(s) (previous count restored)`, { numVfs: previousNumVfs, previousNumVfs });
      device.numVfs = numVfs;
      changed();
      return { numVfs, previousNumVfs, changed: true };
    },

    async createMdev(params: JobParams): Promise<JobEvidence> {
      const { device } = deviceAt(pciAddressParam(params), ['gpu']);
      const mdevType = nameParam(params, 'mdevType');
      const mdevUuid = uuidParam(params, 'mdevUuid');
      if (settings.vgpuType !== mdevType) throw invalidParams(`${device.address} does not offer mdev type ${mdevType} (offers: ${settings.vgpuType ?? 'none'})`);
      const path = `/sys/bus/pci/devices/${device.address}/${mdevUuid}`;
      if (device.mdevs.has(mdevUuid)) return { mdevUuid, mdevType, path, changed: false };
      if (device.mdevs.size >= settings.vgpuInstances) throw untouched(DRIVER_ERROR_CODES.noCapacity, `${device.address} has no ${mdevType} instance left`);
      if (await begin('createMdev')) throw injected('create-mdev', 'unchanged');
      device.mdevs.add(mdevUuid);
      return { mdevUuid, mdevType, path, changed: true };
    },

    async removeMdev(params: JobParams): Promise<JobEvidence> {
      const { device } = deviceAt(pciAddressParam(params), ['gpu']);
      const mdevUuid = uuidParam(params, 'mdevUuid');
      if (!device.mdevs.has(mdevUuid)) return { mdevUuid, changed: false };
      if (await begin('removeMdev')) throw injected('remove-mdev', `mdev ${mdevUuid} still exists`);
      device.mdevs.delete(mdevUuid);
      return { mdevUuid, changed: true };
    },

    async carve(params: JobParams): Promise<JobEvidence> {
      const { device } = deviceAt(pciAddressParam(params), ['gpu']);
      if (!device.mig) throw untouched(DRIVER_ERROR_CODES.targetUnsupported, `${device.address} is not in MIG mode`);
      const { profile, start } = carveParams(params);
      // A carve offered again (its agent killed after carving, before it answered) finds its GPU instance where it named, as the NVIDIA driver does.
      const carvedBefore = device.mig.partitions.find((partition) => partition.profile === profile && partition.start === start);
      if (carvedBefore) return { ...carvedBefore, changed: false };
      const span = migSpanAt(device.mig, profile, start);
      if (!span) throw untouched(DRIVER_ERROR_CODES.noCapacity, `${device.address} cannot take a ${profile} GPU instance at slice ${start}`);
      const mig = device.mig;
      return partitionChange(
        'carve',
        () => injected('carve', 'nothing carved'),
        () => {
          const partition = carveMig(mig, profile, span);
          migChanged();
          return { ...partition, changed: true };
        },
      );
    },

    async destroy(params: JobParams): Promise<JobEvidence> {
      const { device } = deviceAt(pciAddressParam(params), ['gpu']);
      if (!device.mig) throw untouched(DRIVER_ERROR_CODES.targetUnsupported, `${device.address} is not in MIG mode`);
      const handle = partitionHandleParam(params);
      const indexOf = (mig: SimulatedMig) => mig.partitions.findIndex((partition) => partition.handle === handle);
      if (indexOf(device.mig) < 0) return { handle, changed: false };
      const mig = device.mig;
      return partitionChange(
        'destroy',
        () => injected('destroy', `MIG device ${handle} still exists`, { handle }),
        () => {
          // Looked up again: another destroy of it may have finished meanwhile.
          const at = indexOf(mig);
          if (at < 0) return { handle, changed: false };
          const [destroyed] = mig.partitions.splice(at, 1);
          migChanged();
          return { ...destroyed, changed: true };
        },
      );
    },

    async attach(params: JobParams): Promise<JobEvidence> {
      const { device } = deviceAt(pciAddressParam(params));
      const address = attachTarget(pciAddressParam(params), attachableOf(device), (handle) => device.passedThrough.has(handle));
      const previousDriver = device.passedThrough.has(address) ? 'vfio-pci' : hostDriverOf(device, address);
      if (previousDriver === 'vfio-pci') return { pciAddress: address, driver: 'vfio-pci', previousDriver, changed: false };
      if (await begin('attach')) throw injected('attach', `bound to ${previousDriver} (previous driver restored)`, { pciAddress: address, driver: previousDriver, previousDriver });
      device.passedThrough.add(address);
      if (address === device.address) changed();
      return { pciAddress: address, driver: 'vfio-pci', previousDriver, changed: true };
    },

    async detach(params: JobParams): Promise<JobEvidence> {
      const { device } = deviceAt(pciAddressParam(params));
      const address = detachTarget(pciAddressParam(params), attachableOf(device), (handle) => device.passedThrough.has(handle));
      if (!device.passedThrough.has(address)) return { pciAddress: address, driver: hostDriverOf(device, address), changed: false };
      if (await begin('detach')) throw injected('detach', 'bound to vfio-pci', { pciAddress: address, driver: 'vfio-pci' });
      device.passedThrough.delete(address);
      if (address === device.address) changed();
      return { pciAddress: address, driver: hostDriverOf(device, address), changed: true };
    },

    /** The steps a real driver of the kind would run, each recorded as done; an injected failure names the step it stopped at. */
    async clean(params: JobParams): Promise<JobEvidence> {
      const { device } = deviceAt(pciAddressParam(params));
      const handles = cleanHandles(params);
      const ran = handles.map((handle) => ({ step: simulatedCleanStep(device, handle), result: 'ok' }));
      if (await begin('clean')) {
        const [first, ...rest] = ran;
        throw injected('clean', `not clean: ${first?.step ?? 'reset'} failed`, { ran: [{ step: first?.step ?? 'reset', result: 'failed (injected)' }], skipped: rest.length });
      }
      // The simulated default image is the blank region: the last tenant's function is gone from the next report.
      if (device.kind === 'fpga' && handles.some((handle) => handle.address === device.address) && device.regions[0].functionId !== null) {
        device.regions[0].functionId = null;
        changed();
      }
      return { ran };
    },

    failNext(operation, count = 1) {
      pendingFailures.set(operation, (pendingFailures.get(operation) ?? 0) + count);
    },

    setHealth(key, health, reason, cause) {
      if (health === null) heldHealth.delete(key);
      else heldHealth.set(key, { health, reason: health === 'ok' ? null : (reason ?? `simulated ${health}`), ...(cause && health !== 'ok' ? { cause } : {}) });
    },

    devices() {
      return devices.map((device) => ({ key: device.key, pciAddress: device.address }));
    },
  };
}

/** What a real driver does to clean the handle: the GPU's scrub and reset, the FPGA region's default image, else a VF's or function's reset. */
function simulatedCleanStep(device: SimulatedDevice, handle: CleanHandleParam): string {
  if (handle.type === 'MDEV') return `mdev ${handle.address}: vGPU memory scrubbed by the host driver on removal`;
  if (handle.address !== device.address) return `function-level reset of VF ${handle.address}`;
  if (device.kind === 'gpu') return `GPU memory scrub and reset of ${handle.address} (nvidia-smi --gpu-reset)`;
  if (device.kind === 'fpga') return `region of ${handle.address} reprogrammed to its default image (blank)`;
  return `function-level reset of ${handle.address}`;
}

/** A program job's `region`: an index, or a region's id as `region<index>`; absent: undefined. */
function regionParam(params: JobParams, regions: number): number | undefined {
  const raw = params.region;
  if (raw === undefined || raw === null) return undefined;
  const index = typeof raw === 'number' ? raw : Number(/^(?:region)?(\d+)$/.exec(String(raw))?.[1] ?? Number.NaN);
  if (!Number.isInteger(index) || index < 0 || index >= regions) throw invalidParams(`region must name one of the card's ${regions} region(s) (got ${JSON.stringify(raw)})`);
  return index;
}
