import type { Principal } from '@ledger/auth';
import type { CommandContext } from '@ledger/eventstore';
import { correlationIdOf, type RequestIdentity } from './request-ids';

/**
 * The metadata every command carries: the caller, the request's correlation
 * id (`correlationIdOf`), and the request as cause.
 */
export function commandContext(principal: Principal, request: RequestIdentity): CommandContext {
  return {
    actor: { user: principal.user, project: principal.project, roles: principal.roles },
    correlationId: correlationIdOf(request),
    causationId: String(request.id),
  };
}
