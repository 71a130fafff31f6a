import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/auth';
import type { CommandContext } from '@ledger/eventstore';
import { isUuid } from '@ledger/kernel';

/**
 * The metadata every command carries: the caller, and a correlation id taken
 * from `X-Correlation-Id` when the client sends a UUID (so a client can
 * follow its request through the log), else the request's own id.
 */
export function commandContext(principal: Principal, request: FastifyRequest): CommandContext {
  return {
    actor: { user: principal.user, project: principal.project, roles: principal.roles },
    correlationId: requestCorrelationId(request),
    causationId: String(request.id),
  };
}

/** `X-Correlation-Id` when it is a UUID (lower-cased), else the request's own id. */
export function requestCorrelationId(request: Pick<FastifyRequest, 'headers' | 'id'>): string {
  const header = request.headers['x-correlation-id'];
  return typeof header === 'string' && isUuid(header) ? header.toLowerCase() : String(request.id);
}
