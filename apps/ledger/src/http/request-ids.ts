import type { FastifyRequest } from 'fastify';
import { isUuid, type LogContext } from '@ledger/kernel';

/** What OpenStack services send (keystoneauth, Nova): `X-OpenStack-Request-ID: req-<uuid>`. */
const OPENSTACK_REQUEST_ID = /^req-([0-9a-f-]{36})$/i;

/**
 * The correlation id of a request: `X-Correlation-Id` when the client sends
 * a UUID (so a client can follow its request through the log), else the
 * UUID of an OpenStack client's `X-OpenStack-Request-ID` (Nova's log
 * names it), else the request's own id.
 */
export function correlationIdOf(request: FastifyRequest): string {
  const header = request.headers['x-correlation-id'];
  if (typeof header === 'string' && isUuid(header)) return header.toLowerCase();
  const openstack = request.headers['x-openstack-request-id'];
  const uuid = typeof openstack === 'string' ? OPENSTACK_REQUEST_ID.exec(openstack)?.[1] : undefined;
  return uuid !== undefined && isUuid(uuid) ? uuid.toLowerCase() : String(request.id);
}

/** The ids every line logged for `request` carries. */
export function requestLogContext(request: FastifyRequest): LogContext {
  return { requestId: String(request.id), correlationId: correlationIdOf(request) };
}
