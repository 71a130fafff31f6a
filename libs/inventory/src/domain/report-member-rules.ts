import { STANDARD_RESOURCE_CLASSES, HOST_REPORT_LIMITS } from './host-report';
import { compareStrings } from './identity';
import { ReportInvalidError, ReportTooLargeError } from './inventory.errors';

/** The rules a member of a host report must keep; each throws ReportInvalidError (400) or ReportTooLargeError (413) naming its path. */

const PCI_ID = /^[0-9a-f]{4}$/;
/** Domain (4 hex digits, up to 8 behind VMD bridges), bus, device (0–1f), function (0–7). */
const PCI_ADDRESS = /^[0-9a-f]{4,8}:[0-9a-f]{2}:[01][0-9a-f]\.[0-7]$/;
const CUSTOM_RESOURCE_CLASS = /^CUSTOM_[A-Z0-9_]+$/;
const TRAIT = /^[A-Z][A-Z0-9_]*$/;
export const MAX_NAME = 255;


export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function arrayOf<T>(value: readonly T[] | undefined, path: string, limit: number): readonly T[] {
  if (!Array.isArray(value)) throw new ReportInvalidError(path, 'must be an array', value);
  if (value.length > limit) throw new ReportTooLargeError(path, limit, value.length);
  return value;
}

export function optional<T, R>(value: T | null | undefined, rule: (value: T) => R): R | undefined {
  return value === undefined || value === null ? undefined : rule(value);
}

export function nullable<T, R>(value: T | null | undefined, rule: (value: T) => R): R | null {
  return value === undefined || value === null ? null : rule(value);
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  if (!allowed.includes(value as T)) throw new ReportInvalidError(path, `must be one of ${allowed.join(', ')}`, value);
  return value as T;
}

export function textAt(value: unknown, path: string, maxLength: number, allowEmpty = false): string {
  if (typeof value !== 'string') throw new ReportInvalidError(path, 'must be a string', value);
  if (!allowEmpty && value.length === 0) throw new ReportInvalidError(path, 'must not be empty');
  if (value.length > maxLength) throw new ReportInvalidError(path, `must be at most ${maxLength} characters`, value);
  return value;
}

export function patternAt(value: unknown, pattern: RegExp, path: string, rule: string, maxLength = MAX_NAME): string {
  if (typeof value !== 'string' || value.length > maxLength || !pattern.test(value)) throw new ReportInvalidError(path, rule, value);
  return value;
}

export const pciIdAt = (value: unknown, path: string): string =>
  patternAt(typeof value === 'string' ? value.toLowerCase() : value, PCI_ID, path, 'must be a 4-digit hex PCI id (e.g. 10de)');

export const pciAddressAt = (value: unknown, path: string): string =>
  patternAt(
    typeof value === 'string' ? value.toLowerCase() : value,
    PCI_ADDRESS,
    path,
    'must be a PCI address domain:bus:device.function (e.g. 0000:3b:00.0)',
  );

export function integerAt(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ReportInvalidError(path, `must be an integer from ${min} to ${max}`, value);
  }
  return value;
}

export function resourceClassAt(value: unknown, path: string): string {
  const standard = (STANDARD_RESOURCE_CLASSES as readonly unknown[]).includes(value);
  if (standard) return value as string;
  return patternAt(value, CUSTOM_RESOURCE_CLASS, path, `must be ${STANDARD_RESOURCE_CLASSES.join(', ')} or CUSTOM_[A-Z0-9_]+`);
}

export function traitsAt(value: unknown, path: string): readonly string[] {
  const traits = arrayOf(value as readonly unknown[] | undefined, path, HOST_REPORT_LIMITS.traitsPerDeployable);
  const checked = traits.map((trait, index) => patternAt(trait, TRAIT, `${path}[${index}]`, 'must be a trait name ([A-Z][A-Z0-9_]*)'));
  return [...new Set(checked)].sort(compareStrings);
}

export function stringMapAt(value: unknown, path: string): Readonly<Record<string, string>> {
  return sortedMap(value, path, HOST_REPORT_LIMITS.boardInfoEntries, (member, memberPath) => textAt(member, memberPath, 1024, true));
}

export function capacityAt(value: unknown, path: string): Readonly<Record<string, number>> {
  return sortedMap(value, path, HOST_REPORT_LIMITS.capacityEntries, (member, memberPath) => {
    if (typeof member !== 'number' || !Number.isFinite(member) || member < 0) {
      throw new ReportInvalidError(memberPath, 'must be a finite number ≥ 0', member);
    }
    return member;
  });
}

export function sortedMap<V>(
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
