import { isUuid } from '@ledger/kernel';
import { JobInvalidError } from './job.errors';
import type { JobKind } from './job-kinds';

/** An image the agent downloads and checks itself. */
export interface ImageByUrl {
  /** An http(s) URL, or the ledger's own `/api/v1/bitstreams/{id}/content`, which the agent fetches from its ledger with its credential. */
  readonly url: string;
  /** 64 lower-case hex digits. */
  readonly sha256: string;
}

/**
 * An image named by its Glance id, as Cyborg's `PATCH /v2/deployables/{uuid}/program`
 * names it: the agent resolves url and checksum through the image service it is configured with.
 */
export interface ImageByUuid {
  readonly imageUuid: string;
}

export interface ProgramParams {
  readonly deviceUuid: string;
  readonly deployableUuid: string;
  readonly pciAddress: string;
  /** The region to load, when the device has several (a deployable each). */
  readonly region?: string;
  readonly image: ImageByUrl | ImageByUuid;
  /**
   * The registered bitstream (libs/programming) the image is, when the
   * requester names one: provenance then records it by id. Cyborg's program
   * path names none.
   */
  readonly bitstreamId?: string;
}

/**
 * A shell (static region) load: the device's FPGA management function takes
 * the image, and the agent reads the interface id back. Names the device,
 * never a region (`target: 'shell'`; a region program leaves `target` out or says `region`).
 */
export interface ShellProgramParams {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  readonly target: 'shell';
  readonly image: ImageByUrl | ImageByUuid;
  readonly bitstreamId?: string;
}

/** Is the function (a PF, or a VF given to an instance) reachable? `instanceUuid` names the instance it should serve, when one does. */
export interface ProbeParams {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  readonly instanceUuid?: string;
}

export interface ConfigureVfsParams {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  readonly numVfs: number;
}

export interface CreateMdevParams {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  readonly mdevType: string;
  readonly mdevUuid: string;
}

export interface RemoveMdevParams {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  readonly mdevUuid: string;
}

export interface AttachParams {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  readonly instanceUuid: string;
}

/** An attach handle to clean: its type and address as the inventory records them (a VF's PCI address, an mdev's uuid). */
export interface CleanHandle {
  readonly uuid: string;
  readonly type: string;
  readonly address: string;
}

/**
 * Clean what a tenant released (issue 24 part 3): the driver resets each
 * handle (a VF on its own, the whole function when the handle is the PF)
 * and scrubs what it can. `attempt` is the device stream's cleaning attempt
 * the outcome is recorded against.
 */
export interface CleanParams {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  readonly attempt: number;
  readonly handles: readonly CleanHandle[];
}

export interface DriverJobParams {
  readonly driver: string;
  readonly version?: string;
}

export type JobParams =
  | ProgramParams
  | ShellProgramParams
  | ProbeParams
  | ConfigureVfsParams
  | CreateMdevParams
  | RemoveMdevParams
  | AttachParams
  | DriverJobParams
  | CleanParams
  | Readonly<Record<string, never>>;

/** `dddd:bb:dd.f`, with the wider PCI domains agents may report (as the inventory accepts them). */
const PCI_ADDRESS = /^[0-9a-f]{4,8}:[0-9a-f]{2}:[01][0-9a-f]\.[0-7]$/;
/** As the inventory accepts MDEV types in reports. */
const MDEV_TYPE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A region is named as its deployable (a Placement provider name: up to 200 characters). */
const REGION = /^[^\x00-\x1f\x7f]{1,200}$/u;
const DRIVER = /^[a-z0-9][a-z0-9-]{0,62}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const PRINTABLE = /^[\x21-\x7e][\x20-\x7e]*$/;
const MAX_URL_LENGTH = 2048;
export const MAX_VFS = 256;
const MAX_CLEAN_HANDLES = 1024;

type Raw = Readonly<Record<string, unknown>>;

/**
 * The params of a `kind` job, checked and normalised (uuids, PCI addresses
 * and checksums lower-cased); throws JOB.INVALID naming the member
 * (`params.numVfs`). Members a kind does not take are refused, so a typo
 * is an error rather than a silently ignored setting.
 */
export function validateJobParams(kind: JobKind, params: unknown): JobParams {
  const raw = objectAt(params, 'params');
  switch (kind) {
    case 'program':
      if (raw.target === 'shell') return shellProgramParams(raw);
      only(raw, ['deviceUuid', 'deployableUuid', 'pciAddress', 'region', 'image', 'bitstreamId', 'target']);
      if (raw.target !== undefined && raw.target !== 'region') throw new JobInvalidError('params.target', 'must be shell or region', raw.target);
      return {
        deviceUuid: uuidAt(raw, 'deviceUuid'),
        deployableUuid: uuidAt(raw, 'deployableUuid'),
        pciAddress: pciAddressAt(raw),
        ...(raw.region === undefined ? {} : { region: patternAt(raw, 'region', REGION, 'must be 1–200 characters without control characters') }),
        image: imageAt(raw.image),
        ...(raw.bitstreamId === undefined ? {} : { bitstreamId: uuidAt(raw, 'bitstreamId') }),
      };
    case 'configure-vfs':
      only(raw, ['deviceUuid', 'pciAddress', 'numVfs']);
      return { deviceUuid: uuidAt(raw, 'deviceUuid'), pciAddress: pciAddressAt(raw), numVfs: numVfsAt(raw) };
    case 'create-mdev':
      only(raw, ['deviceUuid', 'pciAddress', 'mdevType', 'mdevUuid']);
      return {
        deviceUuid: uuidAt(raw, 'deviceUuid'),
        pciAddress: pciAddressAt(raw),
        mdevType: patternAt(raw, 'mdevType', MDEV_TYPE, 'must be 1–64 letters, digits or ._- (e.g. nvidia-35)'),
        mdevUuid: uuidAt(raw, 'mdevUuid'),
      };
    case 'remove-mdev':
      only(raw, ['deviceUuid', 'pciAddress', 'mdevUuid']);
      return { deviceUuid: uuidAt(raw, 'deviceUuid'), pciAddress: pciAddressAt(raw), mdevUuid: uuidAt(raw, 'mdevUuid') };
    case 'attach':
    case 'detach':
      only(raw, ['deviceUuid', 'pciAddress', 'instanceUuid']);
      return { deviceUuid: uuidAt(raw, 'deviceUuid'), pciAddress: pciAddressAt(raw), instanceUuid: uuidAt(raw, 'instanceUuid') };
    case 'install-driver':
    case 'uninstall-driver':
    case 'update-driver':
      only(raw, ['driver', 'version']);
      return {
        driver: patternAt(raw, 'driver', DRIVER, 'must match ^[a-z0-9][a-z0-9-]{0,62}$'),
        ...(raw.version === undefined ? {} : { version: versionAt(raw.version) }),
      };
    case 'discover':
      only(raw, []);
      return {};
    case 'probe':
      only(raw, ['deviceUuid', 'pciAddress', 'instanceUuid']);
      return {
        deviceUuid: uuidAt(raw, 'deviceUuid'),
        pciAddress: pciAddressAt(raw),
        ...(raw.instanceUuid === undefined ? {} : { instanceUuid: uuidAt(raw, 'instanceUuid') }),
      };
    case 'clean':
      return cleanParams(raw);
  }
}

function cleanParams(raw: Raw): CleanParams {
  only(raw, ['deviceUuid', 'pciAddress', 'attempt', 'handles']);
  const attempt = raw.attempt;
  if (!Number.isSafeInteger(attempt) || (attempt as number) < 1) throw new JobInvalidError('params.attempt', 'must be a positive integer', attempt);
  if (!Array.isArray(raw.handles) || raw.handles.length === 0 || raw.handles.length > MAX_CLEAN_HANDLES) {
    throw new JobInvalidError('params.handles', `must be a list of 1–${MAX_CLEAN_HANDLES} handles`);
  }
  const handles = raw.handles.map((value, index): CleanHandle => {
    const handle = objectAt(value, `params.handles[${index}]`);
    const text = (member: 'type' | 'address') => {
      const item = handle[member];
      if (typeof item !== 'string' || !PRINTABLE.test(item) || item.length > 255) throw new JobInvalidError(`params.handles[${index}].${member}`, 'must be 1–255 printable characters', item);
      return item;
    };
    if (!isUuid(handle.uuid)) throw new JobInvalidError(`params.handles[${index}].uuid`, 'must be a uuid', handle.uuid);
    return { uuid: handle.uuid.toLowerCase(), type: text('type'), address: text('address') };
  });
  return { deviceUuid: uuidAt(raw, 'deviceUuid'), pciAddress: pciAddressAt(raw), attempt: attempt as number, handles };
}

function shellProgramParams(raw: Raw): ShellProgramParams {
  only(raw, ['deviceUuid', 'pciAddress', 'target', 'image', 'bitstreamId']);
  return {
    deviceUuid: uuidAt(raw, 'deviceUuid'),
    pciAddress: pciAddressAt(raw),
    target: 'shell',
    image: imageAt(raw.image),
    ...(raw.bitstreamId === undefined ? {} : { bitstreamId: uuidAt(raw, 'bitstreamId') }),
  };
}

/** A program job's params name the shell or a region. */
export const isShellProgram = (params: JobParams): params is ShellProgramParams => (params as { target?: unknown }).target === 'shell';

function objectAt(value: unknown, path: string): Raw {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new JobInvalidError(path, 'must be an object', value);
  return value as Raw;
}

function only(raw: Raw, members: readonly string[]): void {
  const unknown = Object.keys(raw).find((member) => !members.includes(member));
  if (unknown !== undefined) throw new JobInvalidError(`params.${unknown}`, `is not a member of this kind's params (${members.join(', ') || 'none'})`);
}

function uuidAt(raw: Raw, member: string): string {
  const value = raw[member];
  if (!isUuid(value)) throw new JobInvalidError(`params.${member}`, 'must be a uuid', value);
  return value.toLowerCase();
}

function pciAddressAt(raw: Raw): string {
  const value = raw.pciAddress;
  if (typeof value !== 'string' || !PCI_ADDRESS.test(value.toLowerCase())) {
    throw new JobInvalidError('params.pciAddress', 'must be a PCI address dddd:bb:dd.f', value);
  }
  return value.toLowerCase();
}

function patternAt(raw: Raw, member: string, pattern: RegExp, reason: string): string {
  const value = raw[member];
  if (typeof value !== 'string' || !pattern.test(value)) throw new JobInvalidError(`params.${member}`, reason, value);
  return value;
}

function numVfsAt(raw: Raw): number {
  const value = raw.numVfs;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_VFS) {
    throw new JobInvalidError('params.numVfs', `must be an integer from 0 to ${MAX_VFS}`, value);
  }
  return value;
}

function versionAt(value: unknown): string {
  if (typeof value !== 'string' || value.length > 64 || !PRINTABLE.test(value)) {
    throw new JobInvalidError('params.version', 'must be 1–64 printable characters', value);
  }
  return value;
}

function imageAt(value: unknown): ImageByUrl | ImageByUuid {
  const image = objectAt(value, 'params.image');
  if (image.imageUuid !== undefined) {
    if (Object.keys(image).length !== 1) throw new JobInvalidError('params.image', 'names an image either by imageUuid or by url and sha256');
    if (!isUuid(image.imageUuid)) throw new JobInvalidError('params.image.imageUuid', 'must be a uuid', image.imageUuid);
    return { imageUuid: image.imageUuid.toLowerCase() };
  }
  const unknown = Object.keys(image).find((member) => member !== 'url' && member !== 'sha256');
  if (unknown !== undefined) throw new JobInvalidError(`params.image.${unknown}`, 'is not a member of an image (url, sha256, or imageUuid)');
  return { url: urlAt(image.url), sha256: sha256At(image.sha256) };
}

/** A registered image's bytes on the ledger (the programming API), by path: each agent reaches its ledger at its own address. */
const LEDGER_CONTENT_PATH = /^\/api\/v1\/bitstreams\/[0-9a-f-]{36}\/content$/;

function urlAt(value: unknown): string {
  if (typeof value === 'string' && LEDGER_CONTENT_PATH.test(value)) return value;
  if (typeof value === 'string' && value.length <= MAX_URL_LENGTH && URL.canParse(value)) {
    const { protocol, hostname } = new URL(value);
    if ((protocol === 'http:' || protocol === 'https:') && hostname !== '') return value;
  }
  throw new JobInvalidError('params.image.url', `must be an http(s) URL of at most ${MAX_URL_LENGTH} characters, or a ledger path /api/v1/bitstreams/{id}/content`, value);
}

function sha256At(value: unknown): string {
  if (typeof value !== 'string' || !SHA256.test(value.toLowerCase())) throw new JobInvalidError('params.image.sha256', 'must be 64 hex digits', value);
  return value.toLowerCase();
}
