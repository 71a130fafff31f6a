import type { FastifyRequest } from 'fastify';
import { ValidationError } from '@ledger/kernel';

/** Where a GraphQL document's text can start when it is also JSON text: a value, an array or an object. */
const JSON_START = /^\s*[[{"\d-]|^\s*(?:true|false|null)\s*$/;

/**
 * Refuses a `query` whose text is JSON. Mercurius takes a query that fails
 * to parse as GraphQL for a document already parsed, sent as JSON, and
 * hands whatever JSON.parse made of it to graphql-js, which throws on
 * anything but a document AST: "0" was a 500 (found by the fuzzer). The
 * ledger takes GraphQL as text only, so such a query is refused here,
 * before Mercurius sees it. A GraphQL query starting with `{` is not JSON
 * (its field names are not quoted), so JSON.parse rejects it at once.
 */
export function refuseJsonAsQuery(request: FastifyRequest): void {
  const query = queryText(request);
  if (query === undefined || !JSON_START.test(query)) return;
  try {
    JSON.parse(query);
  } catch {
    return;
  }
  throw new ValidationError('GRAPHQL.INVALID_QUERY', 'the query is JSON, not GraphQL: send the GraphQL document as text (e.g. "{ hosts { edges { node { hostname } } } }")');
}

function queryText(request: FastifyRequest): string | undefined {
  if (typeof request.body === 'string') return request.body;
  const source = (request.method === 'GET' ? request.query : request.body) as { query?: unknown } | undefined;
  return typeof source?.query === 'string' ? source.query : undefined;
}
