import { DeviceProfileInvalidError } from './device-profile.errors';

export const MAX_PROFILE_GROUPS = 16;
/** Accelerator requests one profile may create (the sum of its `resources:*` amounts). */
export const MAX_PROFILE_UNITS = 64;
export const MAX_GROUP_KEY_LENGTH = 255;
export const MAX_GROUP_VALUE_LENGTH = 255;

const STANDARD_RESOURCE_CLASSES: readonly string[] = ['FPGA', 'GPU', 'VGPU', 'PGPU'];
/** Placement's rule for custom resource classes and traits. */
const CUSTOM_NAME = /^CUSTOM_[A-Z0-9_]+$/;
const GROUP_KEY = /^(resources|trait|accel):(.*)$/s;
const TRAIT_VALUES: readonly string[] = ['required', 'forbidden'];

/** One group as stored and served: string keys (`resources:FPGA`) to string values (`"1"`). */
export type DeviceProfileGroup = Readonly<Record<string, string>>;

/** One group of a profile, read for scheduling: what Nova turns into a Placement request group. */
export interface RequestGroup {
  /** Position in the profile's groups: an ARQ's `device_profile_group_id`. */
  readonly index: number;
  readonly resources: readonly { readonly resourceClass: string; readonly amount: number }[];
  readonly requiredTraits: readonly string[];
  readonly forbiddenTraits: readonly string[];
  readonly accel: Readonly<Record<string, string>>;
}

/**
 * Checks a profile's groups as Cyborg's `_validate_post_request` does, and
 * stricter (CYBORG-V2.md §2.3), and returns them in stored form: spaces
 * after a key's prefix stripped, amounts as strings. Throws
 * DeviceProfileInvalidError naming the group and key.
 */
export function normalizeDeviceProfileGroups(groups: unknown): DeviceProfileGroup[] {
  if (!Array.isArray(groups) || groups.length === 0) {
    throw new DeviceProfileInvalidError('groups', 'DeviceProfile needs groups field: a non-empty list of groups');
  }
  if (groups.length > MAX_PROFILE_GROUPS) {
    throw new DeviceProfileInvalidError('groups', `A device profile has at most ${MAX_PROFILE_GROUPS} groups, not ${groups.length}`);
  }
  const normalized = groups.map((group, index) => normalizeGroup(group, index));
  const units = normalized.flatMap(resourcesOf).reduce((sum, resource) => sum + resource.amount, 0);
  if (units > MAX_PROFILE_UNITS) {
    throw new DeviceProfileInvalidError('groups', `A device profile requests at most ${MAX_PROFILE_UNITS} resources in all, not ${units}`);
  }
  return normalized;
}

/** The groups of a profile, read for scheduling (validated as by normalizeDeviceProfileGroups). */
export function parseDeviceProfileGroups(groups: unknown): RequestGroup[] {
  return normalizeDeviceProfileGroups(groups).map((group, index) => ({
    index,
    resources: resourcesOf(group),
    requiredTraits: traitsOf(group, 'required'),
    forbiddenTraits: traitsOf(group, 'forbidden'),
    accel: Object.fromEntries(Object.entries(group).filter(([key]) => key.startsWith('accel:'))),
  }));
}

function normalizeGroup(group: unknown, index: number): DeviceProfileGroup {
  if (typeof group !== 'object' || group === null || Array.isArray(group)) {
    throw new DeviceProfileInvalidError(`groups[${index}]`, `Group ${index} must be an object of string keys and values`);
  }
  const result: Record<string, string> = {};
  for (const [rawKey, value] of Object.entries(group)) {
    const { key, kind, name } = normalizeKey(rawKey, index);
    if (key in result) throw invalid(index, rawKey, `Key ${key} appears twice once spaces are stripped`);
    if (kind === 'resources') result[key] = String(resourceAmount(name, value, index, rawKey));
    else if (kind === 'trait') result[key] = traitValue(name, value, index, rawKey);
    else result[key] = stringValue(value, index, rawKey);
  }
  if (!Object.keys(result).some((key) => key.startsWith('resources:'))) {
    throw new DeviceProfileInvalidError(`groups[${index}]`, `Group ${index} requests no resources: add a "resources:<class>" key`);
  }
  if ('accel:bitstream_id' in result && 'accel:function_id' in result) {
    throw invalid(index, 'accel:function_id', 'A group may set accel:bitstream_id or accel:function_id, not both');
  }
  return result;
}

function normalizeKey(rawKey: string, index: number): { key: string; kind: string; name: string } {
  if (rawKey.length > MAX_GROUP_KEY_LENGTH) throw invalid(index, rawKey, `Group keys have at most ${MAX_GROUP_KEY_LENGTH} characters`);
  const match = GROUP_KEY.exec(rawKey);
  if (!match) throw invalid(index, rawKey, 'Device profile group keys must start with resources:, trait: or accel:');
  // Cyborg strips the spaces after the prefix (`resources: FPGA`), so clients send them.
  const kind = match[1];
  const name = match[2].replace(/^ +| +$/g, '');
  if (name === '') throw invalid(index, rawKey, `Key ${rawKey} names no ${kind === 'resources' ? 'resource class' : kind}`);
  return { key: `${kind}:${name}`, kind, name };
}

function resourceAmount(resourceClass: string, value: unknown, index: number, key: string): number {
  if (!STANDARD_RESOURCE_CLASSES.includes(resourceClass) && !CUSTOM_NAME.test(resourceClass)) {
    throw invalid(index, key, `Unsupported resource class ${resourceClass}: use FPGA, GPU, VGPU, PGPU or CUSTOM_<A-Z0-9_>`);
  }
  const amount = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
  if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > MAX_PROFILE_UNITS) {
    throw invalid(index, key, `Resources number ${printable(value)} is invalid: give an integer from 1 to ${MAX_PROFILE_UNITS}`);
  }
  return amount;
}

function traitValue(trait: string, value: unknown, index: number, key: string): string {
  if (!trait.startsWith('CUSTOM_')) throw invalid(index, key, `Unsupported trait name format ${trait}, should start with CUSTOM_`);
  if (!CUSTOM_NAME.test(trait)) throw invalid(index, key, `Unsupported trait name format ${trait}, should hold only A-Z, 0-9 and _`);
  if (typeof value !== 'string' || !TRAIT_VALUES.includes(value)) {
    throw invalid(index, key, `Unsupported trait value ${printable(value)}, the value must be one among required, forbidden`);
  }
  return value;
}

function stringValue(value: unknown, index: number, key: string): string {
  if (typeof value !== 'string' || value.length > MAX_GROUP_VALUE_LENGTH) {
    throw invalid(index, key, `The value of ${key} must be a string of at most ${MAX_GROUP_VALUE_LENGTH} characters`);
  }
  return value;
}

function resourcesOf(group: DeviceProfileGroup): { resourceClass: string; amount: number }[] {
  return Object.entries(group)
    .filter(([key]) => key.startsWith('resources:'))
    .map(([key, amount]) => ({ resourceClass: key.slice('resources:'.length), amount: Number(amount) }));
}

function traitsOf(group: DeviceProfileGroup, requirement: string): string[] {
  return Object.entries(group)
    .filter(([key, value]) => key.startsWith('trait:') && value === requirement)
    .map(([key]) => key.slice('trait:'.length));
}

/** Cyborg's message, then where: clients see the first, operators fix the second. */
const invalid = (index: number, key: string, message: string) =>
  new DeviceProfileInvalidError(`groups[${index}].${key}`, `${message} (group ${index}, key "${key}")`);

const printable = (value: unknown): string => (typeof value === 'string' ? (value.length > 40 ? `${value.slice(0, 40)}…` : value) : JSON.stringify(value) ?? String(value));
