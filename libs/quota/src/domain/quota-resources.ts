import { QuotaInvalidError } from './quota.errors';

/** Amounts per resource: `{ FPGA: 1, "capacity:memoryGiB": 80 }`. */
export type QuotaResources = Readonly<Record<string, number>>;

/** Placement's standard accelerator classes, plus `GPU` as the ledger's device type name. */
export const STANDARD_RESOURCE_CLASSES = ['FPGA', 'PGPU', 'VGPU', 'GPU'] as const;

// Placement caps resource class names at 255 characters.
const RESOURCE_CLASS = /^(FPGA|PGPU|VGPU|GPU|CUSTOM_[A-Z0-9_]{1,248})$/;
// The keys of the `capacity` map devices report (libs/inventory host-report.ts).
const CAPACITY = /^capacity:[a-zA-Z][a-zA-Z0-9_]{0,63}$/;

/** Distinct resources one command may name (per limits map, per consumer). */
export const MAX_RESOURCES_PER_COMMAND = 64;
/** The largest limit: exact in a JavaScript number and in a BIGINT column. */
export const MAX_QUOTA_LIMIT = Number.MAX_SAFE_INTEGER;
/** The largest amount one consumer may reserve of one resource (Placement's inventory bound). */
export const MAX_RESERVED_AMOUNT = 2 ** 31 - 1;

export const isQuotaResource = (name: string): boolean => RESOURCE_CLASS.test(name) || CAPACITY.test(name);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entries of a JSON object of resources, with each name checked; `path` prefixes error paths. */
export function resourceEntries(value: unknown, path: string): [string, unknown][] {
  if (!isPlainObject(value)) throw new QuotaInvalidError(path, 'must be an object of resource names to numbers', value);
  const entries = Object.entries(value);
  if (entries.length > MAX_RESOURCES_PER_COMMAND) {
    throw new QuotaInvalidError(path, `names ${entries.length} resources, at most ${MAX_RESOURCES_PER_COMMAND} allowed`);
  }
  for (const [name] of entries) {
    if (!isQuotaResource(name)) {
      throw new QuotaInvalidError(
        `${path}.${name}`,
        'is not a resource: use FPGA, PGPU, VGPU, GPU, CUSTOM_[A-Z0-9_]+ or capacity:<name>',
        name,
      );
    }
  }
  return entries;
}

/** Checks amounts to reserve: positive integers, at least one resource. */
export function parseReservedResources(value: unknown, path: string): QuotaResources {
  const entries = resourceEntries(value, path);
  if (entries.length === 0) throw new QuotaInvalidError(path, 'must name at least one resource');
  for (const [name, amount] of entries) {
    if (!Number.isInteger(amount) || (amount as number) < 1 || (amount as number) > MAX_RESERVED_AMOUNT) {
      throw new QuotaInvalidError(`${path}.${name}`, `must be an integer from 1 to ${MAX_RESERVED_AMOUNT}`, amount);
    }
  }
  return Object.fromEntries(entries) as QuotaResources;
}

/** Two reservations are the same when they name the same resources with the same amounts, in any order. */
export function sameResources(a: QuotaResources, b: QuotaResources): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
