import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { withLogContext } from '@ledger/kernel';
import { requestLogContext } from '../http/request-ids';

/**
 * Puts the request's ids on every line logged while it is handled, and, at
 * debug, logs one line per request when its answer is sent.
 *
 * The context is entered before the handler (`preHandler`), after the body
 * is read: a body arriving in later packets is read in the socket's async
 * context, where one entered at `onRequest` would be lost. Errors answered
 * before the handler (`sendError`) enter it themselves.
 *
 * A line per request is at debug, not info: agents' heartbeats and reports
 * are most of the traffic (one per host every 15 s), and a line for each
 * would bury the warnings; what went wrong is logged at warn or error
 * anyway (`sendError`), with the same ids. docs/operations.md, "Logs".
 */
export function logRequests(fastify: FastifyInstance, log: Logger): void {
  fastify.addHook('preHandler', (request, _reply, done) => withLogContext(requestLogContext(request), done));
  if (!log.isLevelEnabled('debug')) return;
  const http = log.child({ context: 'HTTP' });
  fastify.addHook('onResponse', (request, reply, done) => {
    http.debug(
      { ...requestLogContext(request), method: request.method, url: request.url, statusCode: reply.statusCode, durationMs: Math.round(reply.elapsedTime * 10) / 10 },
      `${request.method} ${request.url} → ${reply.statusCode}`,
    );
    done();
  });
}
