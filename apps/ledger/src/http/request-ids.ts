import type { IncomingHttpHeaders } from 'node:http';
import { isUuid, type LogContext } from '@ledger/kernel';

/** What a request's ids are read from: a Fastify request, or the lean agent calls' own (apps/ledger/src/agents/raw-agent-calls.ts). */
export interface RequestIdentity {
  readonly id: string;
  readonly headers: IncomingHttpHeaders;
}

/** What OpenStack services send (keystoneauth, Nova): `X-OpenStack-Request-ID: req-<uuid>`. */
const OPENSTACK_REQUEST_ID = /^req-([0-9a-f-]{36})$/i;

/**
 * The correlation id of a request: `X-Correlation-Id` when the client sends
 * a UUID (so a client can follow its request through the log), else the
 * UUID of an OpenStack client's `X-OpenStack-Request-ID` (Nova's log
 * names it), else the request's own id.
 */
export function correlationIdOf(request: RequestIdentity): string {
  const header = request.headers['x-correlation-id'];
  if (typeof header === 'string' && isUuid(header)) return header.toLowerCase();
  const openstack = request.headers['x-openstack-request-id'];
  const uuid = typeof openstack === 'string' ? OPENSTACK_REQUEST_ID.exec(openstack)?.[1] : undefined;
  return uuid !== undefined && isUuid(uuid) ? uuid.toLowerCase() : String(request.id);
}

/** The ids every line logged for `request` carries. */
export function requestLogContext(request: RequestIdentity): LogContext {
  return { requestId: String(request.id), correlationId: correlationIdOf(request) };
}
