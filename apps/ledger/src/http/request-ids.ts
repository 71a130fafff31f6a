import type { FastifyRequest } from 'fastify';
import { isUuid, type LogContext } from '@ledger/kernel';

/**
 * The correlation id of a request: `X-Correlation-Id` when the client sends
 * a UUID (so a client can follow its request through the log), else the
 * request's own id.
 */
export function correlationIdOf(request: FastifyRequest): string {
  const header = request.headers['x-correlation-id'];
  return typeof header === 'string' && isUuid(header) ? header.toLowerCase() : String(request.id);
}

/** The ids every line logged for `request` carries. */
export function requestLogContext(request: FastifyRequest): LogContext {
  return { requestId: String(request.id), correlationId: correlationIdOf(request) };
}
