import { ConflictError, ForbiddenError, ValidationError } from '@ledger/kernel';

/** Stable error codes of the quota context (clients and tests match on them). */
export const QuotaErrorCodes = {
  /** A project id, resource name, limit, amount or consumer id breaks a rule; `facts.path` names it. */
  INVALID: 'QUOTA.INVALID',
  /** A reservation would take a resource past the project's limit (403). */
  EXCEEDED: 'QUOTA.EXCEEDED',
  /** A consumer already holds a reservation with other amounts (409). */
  CONSUMER_CONFLICT: 'QUOTA.CONSUMER_CONFLICT',
  /** A caller without the admin role asked about another project's quota (403). */
  PROJECT_FORBIDDEN: 'QUOTA.PROJECT_FORBIDDEN',
} as const;

/** Input that breaks a quota rule; nothing was recorded. */
export class QuotaInvalidError extends ValidationError {
  constructor(path: string, reason: string, value?: unknown) {
    super(QuotaErrorCodes.INVALID, `quota: ${path} ${reason}`, { path, reason, ...(value === undefined ? {} : { value: excerpt(value) }) });
  }
}

/** The facts of a refused reservation. */
export interface QuotaExceededFacts {
  readonly project: string;
  readonly resource: string;
  readonly limit: number;
  readonly inUse: number;
  readonly requested: number;
}

/** A reservation would exceed a limit; none of the command's consumers was reserved. */
export class QuotaExceededError extends ForbiddenError {
  constructor(facts: QuotaExceededFacts) {
    const { project, resource, limit, inUse, requested } = facts;
    super(
      QuotaErrorCodes.EXCEEDED,
      `quota exceeded for ${resource} in project ${project}: limit ${limit}, in use ${inUse}, requested ${requested}`,
      { ...facts },
    );
  }
}

/** The consumer already holds other amounts: a reservation is never silently resized. */
export class QuotaConsumerConflictError extends ConflictError {
  constructor(project: string, consumerId: string, reserved: Readonly<Record<string, number>>, requested: Readonly<Record<string, number>>) {
    super(QuotaErrorCodes.CONSUMER_CONFLICT, `consumer ${consumerId} already holds a different reservation in project ${project}`, {
      project,
      consumerId,
      reserved,
      requested,
    });
  }
}

/** Keeps error facts small when the offending value is large or not a primitive. */
function excerpt(value: unknown): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > 100 ? `${value.slice(0, 100)}…` : value;
  return Array.isArray(value) ? '[array]' : `[${typeof value}]`;
}
