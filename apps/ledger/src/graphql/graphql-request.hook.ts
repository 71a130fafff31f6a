import type { FastifyRequest } from 'fastify';
import { type AuthOptions, authenticate, type Principal } from '@ledger/auth';
import { type ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { refuseJsonAsQuery } from './json-as-query';

/**
 * Runs before any GraphQL work on /graphql: the caller is authenticated with
 * the REST API's rules (no valid token: 401, even for a query that selects
 * nothing but `__typename`), and `X-Ledger-Min-Position` is waited for once
 * for the whole query, as a REST read waits for it. A query sent as JSON
 * instead of GraphQL text is refused (`refuseJsonAsQuery`).
 */
export function graphqlRequestHook(auth: AuthOptions, consistency: ConsistencyService) {
  return async (request: FastifyRequest & { principal?: Principal }): Promise<void> => {
    request.principal = await authenticate(request.headers, auth);
    refuseJsonAsQuery(request);
    const minPosition = request.headers[MIN_POSITION_HEADER];
    await consistency.awaitHeader(typeof minPosition === 'string' ? minPosition : undefined);
  };
}
