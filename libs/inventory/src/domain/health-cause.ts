/**
 * What an agent says made a device unhealthy, as data a policy can match
 * (the free-text `healthReason` stays for people). Kinds:
 * - `xid`: an NVIDIA Xid from the kernel log, `code` the Xid (79: fallen off the bus);
 * - `ecc`: memory ECC errors, `detail` `uncorrected` or `corrected`, `count` the volatile count;
 * - `row-remap`: HBM row remapping (nvidia-smi -q -x `remapped_rows`), `detail` `pending` or `failed`, `count` the rows;
 * - `aer`: PCIe Advanced Error Reporting, `detail` `fatal` or `nonfatal`, `count` the errors;
 * - `unresponsive`: the device's tool cannot see or reach it;
 * - `other`: what the driver reads that fits none of these (`detail` says what).
 */
export const HEALTH_CAUSE_KINDS = ['xid', 'ecc', 'row-remap', 'aer', 'unresponsive', 'other'] as const;
export type HealthCauseKind = (typeof HEALTH_CAUSE_KINDS)[number];

/** The longest `detail` accepted. */
export const MAX_HEALTH_CAUSE_DETAIL_LENGTH = 64;
/** The largest `code` and `count` accepted (a 32-bit counter's range). */
export const MAX_HEALTH_CAUSE_NUMBER = 2 ** 31 - 1;

export interface DeviceHealthCause {
  readonly kind: HealthCauseKind;
  /** The cause's number where it has one (the Xid). */
  readonly code?: number;
  /** How many where the cause is counted (ECC errors, remapped rows, AER errors). */
  readonly count?: number;
  /** Which variant of the kind (`uncorrected`, `pending`, `fatal`…). */
  readonly detail?: string;
}

/** A cause as an agent may send it: members it does not know may be null. */
export type ReportedHealthCause = { readonly [K in keyof DeviceHealthCause]: K extends 'kind' ? DeviceHealthCause[K] : DeviceHealthCause[K] | null };

export const isHealthCauseKind = (value: unknown): value is HealthCauseKind => (HEALTH_CAUSE_KINDS as readonly unknown[]).includes(value);

/**
 * Why `value` is not a cause, as [member, rule], or null when it is one.
 * The heartbeat and the device's decider both check with it, so a cause is
 * refused in the same words wherever it enters.
 */
export function healthCauseProblem(value: unknown): readonly [string, string] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['', 'must be an object'];
  const cause = value as Record<string, unknown>;
  const unknown = Object.keys(cause).find((key) => !['kind', 'code', 'count', 'detail'].includes(key));
  if (unknown !== undefined) return [`.${unknown}`, 'is not a member of a cause'];
  if (!isHealthCauseKind(cause.kind)) return ['.kind', `must be one of ${HEALTH_CAUSE_KINDS.join(', ')}`];
  for (const member of ['code', 'count'] as const) {
    const number = cause[member];
    if (number != null && !(Number.isInteger(number) && (number as number) >= 0 && (number as number) <= MAX_HEALTH_CAUSE_NUMBER)) {
      return [`.${member}`, `must be an integer from 0 to ${MAX_HEALTH_CAUSE_NUMBER}`];
    }
  }
  if (cause.detail != null && (typeof cause.detail !== 'string' || cause.detail.length > MAX_HEALTH_CAUSE_DETAIL_LENGTH)) {
    return ['.detail', `must be a string of at most ${MAX_HEALTH_CAUSE_DETAIL_LENGTH} characters`];
  }
  return null;
}

/** The cause with absent and null members dropped, so equal causes are equal data. */
export function normalizeHealthCause(cause: ReportedHealthCause): DeviceHealthCause {
  return {
    kind: cause.kind,
    ...(cause.code != null ? { code: cause.code } : {}),
    ...(cause.count != null ? { count: cause.count } : {}),
    ...(cause.detail != null ? { detail: cause.detail } : {}),
  };
}

/** `xid 79`, `ecc uncorrected ×3`: the cause in a few words, for timelines and logs. */
export function describeHealthCause(cause: DeviceHealthCause): string {
  const parts: string[] = [cause.kind];
  if (cause.code !== undefined) parts.push(String(cause.code));
  if (cause.detail !== undefined) parts.push(cause.detail);
  if (cause.count !== undefined) parts.push(`×${cause.count}`);
  return parts.join(' ');
}
