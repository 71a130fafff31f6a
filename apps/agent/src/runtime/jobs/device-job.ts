import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { AcceleratorDriver, JobEvidence, JobParams } from '../../drivers/accelerator-driver';
import type { HostDiscovery } from '../host-discovery';
import { JOB_FAILURE_CODES, JobFailure } from './job-failure';
import { fetchProgramImage, type ImageSourceOptions } from './program-image';

/** Job kinds carried out on one device, and the driver operation each calls (docs/agent-protocol.md, "Jobs"). */
export const DEVICE_OPERATIONS = {
  program: 'program',
  'configure-vfs': 'configureVfs',
  'create-mdev': 'createMdev',
  'remove-mdev': 'removeMdev',
  attach: 'attach',
  detach: 'detach',
  probe: 'probe',
  clean: 'clean',
} as const satisfies Record<string, keyof AcceleratorDriver>;

export type DeviceJobKind = keyof typeof DEVICE_OPERATIONS;

export const isDeviceJobKind = (kind: string): kind is DeviceJobKind => Object.hasOwn(DEVICE_OPERATIONS, kind);

export interface DeviceJobContext {
  readonly discovery: Pick<HostDiscovery, 'ownerOf' | 'discover'>;
  readonly images: ImageSourceOptions;
  /** Aborted when the job's time is up (stops an image download). */
  readonly signal: AbortSignal;
}

/**
 * Hands a device job to the driver that discovered `params.pciAddress`. A
 * program job's image is downloaded and verified first (from `image.url`,
 * or the image service for `imageUuid`); the driver then gets
 * `image: {url: file://<the verified copy>, sha256}`, so it never fetches
 * from the network itself, and the copy is removed afterwards whatever
 * happened.
 */
export async function runDeviceJob(kind: DeviceJobKind, params: JobParams, context: DeviceJobContext): Promise<JobEvidence> {
  const pciAddress = params.pciAddress;
  if (typeof pciAddress !== 'string' || pciAddress === '') {
    throw new JobFailure(JOB_FAILURE_CODES.paramsInvalid, `a ${kind} job needs params.pciAddress`, { deviceState: 'unchanged' });
  }
  const driver = await ownerOf(pciAddress, context.discovery);
  const operation = driver[DEVICE_OPERATIONS[kind]];
  if (typeof operation !== 'function') {
    throw new JobFailure(JOB_FAILURE_CODES.unsupported, `the ${driver.name} driver cannot ${kind}`, { deviceState: 'unchanged', driver: driver.name });
  }
  if (kind !== 'program') return operation.call(driver, params);
  const image = await fetchProgramImage(params, context.images, context.signal);
  try {
    return await operation.call(driver, { ...params, image: { url: pathToFileURL(image.path).href, sha256: image.sha256 } });
  } finally {
    rmSync(image.path, { force: true });
  }
}

/** The owning driver, rediscovering once in case the device appeared since the last round. */
async function ownerOf(pciAddress: string, discovery: DeviceJobContext['discovery']): Promise<AcceleratorDriver> {
  let driver = discovery.ownerOf(pciAddress);
  if (!driver) {
    await discovery.discover();
    driver = discovery.ownerOf(pciAddress);
  }
  if (!driver) {
    throw new JobFailure(JOB_FAILURE_CODES.deviceUnknown, `no enabled driver has discovered a device at ${pciAddress}`, { deviceState: 'unchanged' });
  }
  return driver;
}
