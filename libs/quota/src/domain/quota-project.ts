import { QuotaInvalidError } from './quota.errors';

const PROJECT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export const isQuotaProjectId = (project: unknown): project is string => typeof project === 'string' && PROJECT_ID.test(project);

/** Refuses a project id that is not `[A-Za-z0-9_.-]{1,64}` (Keystone ids are hex; names used in tests fit too). */
export function assertQuotaProjectId(project: unknown): asserts project is string {
  if (!isQuotaProjectId(project)) throw new QuotaInvalidError('project', 'must match [A-Za-z0-9_.-]{1,64}', project);
}

/**
 * The stream of one project's quota: its limits and reservations, the
 * consistency boundary that keeps concurrent reservations within a limit.
 * Checks the id first, so no command or read can address a malformed stream.
 */
export function quotaStream(project: string): string {
  assertQuotaProjectId(project);
  return `quota-${project}`;
}
