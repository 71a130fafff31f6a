import { isAdmin, type Principal } from '@ledger/auth';
import type { AttachHandleView } from '@ledger/projections/inventory';

/**
 * The attach handles of a deployable as `principal` may see them. Which
 * accelerator request holds a handle is tenant data of that request's
 * project: a manager of another project reading the inventory sees that
 * the handle is in use, not whose request holds it. Admins see it all.
 */
export function attachHandlesSeenBy(principal: Principal, handles: readonly AttachHandleView[]): AttachHandleView[] {
  if (isAdmin(principal)) return [...handles];
  return handles.map((handle) => ({ ...handle, claimedBy: null }));
}
