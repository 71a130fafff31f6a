import type { ArqVisibility } from '@ledger/allocation';
import { isAdmin, type Principal } from '@ledger/auth';

/**
 * Whose accelerator requests a caller sees, through any API: admins every
 * project's; everyone else only their own project's (none without a project).
 */
export function visibilityOf(principal: Principal): ArqVisibility {
  if (isAdmin(principal)) return 'all-projects';
  return { project: principal.project ?? '' };
}
