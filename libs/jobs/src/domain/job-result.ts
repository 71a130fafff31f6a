import { canonicalJson } from '@ledger/kernel';
import { JobInvalidError } from './job.errors';
import type { JobEvidence } from './job.events';

/** Evidence beyond this (as canonical JSON, in bytes) is refused: the log is not a file store. */
export const MAX_EVIDENCE_BYTES = 64 * 1024;
export const MAX_REASON_LENGTH = 1024;

/** What a failure says when the agent gives no code or reason. */
export const DEFAULT_FAILURE_CODE = 'JOB.FAILED';
export const DEFAULT_FAILURE_REASON = 'the agent reported a failure';

const CODE = /^[A-Z][A-Z0-9_]*(\.[A-Z][A-Z0-9_]*)*$/;

export function evidenceOf(value: unknown): JobEvidence {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new JobInvalidError('evidence', 'must be an object', value);
  const bytes = Buffer.byteLength(canonicalJson(value), 'utf8');
  if (bytes > MAX_EVIDENCE_BYTES) {
    throw new JobInvalidError('evidence', `must be at most ${MAX_EVIDENCE_BYTES} bytes as JSON`, undefined, { limit: MAX_EVIDENCE_BYTES, actual: bytes });
  }
  return value as JobEvidence;
}

/** A stable upper-case code such as `DRIVER.PLAYBOOK_FAILED`, at most 64 characters. */
export function failureCodeOf(value: unknown): string {
  if (value === undefined || value === null) return DEFAULT_FAILURE_CODE;
  if (typeof value !== 'string' || value.length > 64 || !CODE.test(value)) {
    throw new JobInvalidError('code', 'must be an upper-case dotted code such as DRIVER.PLAYBOOK_FAILED, at most 64 characters', value);
  }
  return value;
}

export function failureReasonOf(value: unknown): string {
  if (value === undefined || value === null) return DEFAULT_FAILURE_REASON;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_REASON_LENGTH) {
    throw new JobInvalidError('reason', `must be a text of 1–${MAX_REASON_LENGTH} characters`, value);
  }
  return value;
}
