import { isAdmin, type Principal } from '@ledger/auth';
import { ForbiddenError } from '@ledger/kernel';
import { QuotaErrorCodes } from '@ledger/quota';

/** An admin reads any project's quota; everyone else only their token's project. */
export function assertMayReadQuota(principal: Principal, project: string): void {
  if (isAdmin(principal) || principal.project === project) return;
  throw new ForbiddenError(QuotaErrorCodes.PROJECT_FORBIDDEN, `the quota of project ${project} is visible to its members and to admins only`, {
    project,
  });
}
