import type { FastifyInstance } from 'fastify';
import type { LedgerMetrics } from './ledger-metrics';

/** The route label of requests no route matched (404 and 405): every unknown URL is one series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts every response by its route's template, in Fastify's onResponse
 * (after the response is sent, so it adds nothing to the request's time).
 * Added before Nest registers its routes and Mercurius its /graphql, so it
 * sees them all.
 */
export function countHttpResponses(fastify: FastifyInstance, metrics: LedgerMetrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.requestAnswered(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
