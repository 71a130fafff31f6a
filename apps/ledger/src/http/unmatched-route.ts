import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LedgerError } from '@ledger/kernel';
import { sendError } from './send-error';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The methods some route of the app serves at this URL (HEAD comes with every GET). */
export const allowedMethods = (fastify: FastifyInstance, url: string): string[] =>
  METHODS.filter((method) => fastify.findRoute({ method, url }) !== null);

/**
 * Fastify's not-found handler: a path that some route serves with other
 * methods is answered 405 with `Allow`; any other path 404.
 */
export function answerUnmatchedRoute(fastify: FastifyInstance, request: FastifyRequest, reply: FastifyReply): void {
  const allowed = allowedMethods(fastify, request.url);
  if (allowed.length === 0) {
    sendError(new LedgerError('ROUTE.NOT_FOUND', 404, `no endpoint at ${request.url.split('?')[0]}`), request, reply);
    return;
  }
  reply.header('allow', allowed.join(', '));
  sendError(
    new LedgerError('ROUTE.METHOD_NOT_ALLOWED', 405, `${request.method} is not allowed on ${request.url.split('?')[0]}; allowed: ${allowed.join(', ')}`, {
      allow: allowed,
    }),
    request,
    reply,
  );
}
