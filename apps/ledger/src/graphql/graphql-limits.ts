import { type DocumentNode, GraphQLError, type GraphQLSchema } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';

/**
 * Deepest selection a query may nest. The ledger's own types have no cycle
 * (the deepest walk, host → device → deployable → attach handle through
 * connections, is 11 levels) and a client's full introspection query fits;
 * what it stops is introspection nested without end (`ofType { ofType … }`).
 */
export const MAX_QUERY_DEPTH = 15;

/**
 * Most a query may cost: each field 1, a connection its page size times its
 * nodes' cost. One page of 1,000 hosts with a few fields each, or 100 hosts
 * with 10 devices each, fits; a page of 1,000 hosts with 1,000 devices each
 * does not.
 */
export const MAX_QUERY_COST = 25_000;

const GRAPHQL_TOO_COSTLY = 'GRAPHQL.TOO_COSTLY';

/** A request refused before it ran; Mercurius answers it as a refused document (the error formatter unwraps `errors`). */
class QueryRefused extends Error {
  readonly statusCode = 400;

  constructor(readonly errors: readonly GraphQLError[]) {
    super(errors[0].message);
  }
}

/**
 * The cost check of one request, as a Mercurius `preExecution` hook: it
 * runs on the parsed (and cached) document with this request's variables,
 * since `first: $n` sets the cost. As a validation rule it would need the
 * variables at validation, which Mercurius's document cache (and so its
 * graphql-jit compilation) cannot key on.
 */
export function refuseCostlyQuery(schema: GraphQLSchema, document: DocumentNode, _context: unknown, variables: Record<string, unknown> | undefined): void {
  const cost = getComplexity({ schema, query: document, variables: variables ?? {}, estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })] });
  if (cost > MAX_QUERY_COST) {
    const message = `the query costs ${cost}, more than the ${MAX_QUERY_COST} one request may cost: ask for smaller pages or fewer nested lists`;
    throw new QueryRefused([new GraphQLError(message, { extensions: { code: GRAPHQL_TOO_COSTLY, cost, maximumCost: MAX_QUERY_COST } })]);
  }
}
