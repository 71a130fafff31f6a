import { GraphQLError, type ValidationRule } from 'graphql';
import { createComplexityRule, fieldExtensionsEstimator, simpleEstimator } from 'graphql-query-complexity';

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

/** The cost check of one request: it needs the request's variables, since `first: $n` sets the cost. */
export function queryCostRule(variables: Record<string, unknown> | undefined): ValidationRule {
  return createComplexityRule({
    maximumComplexity: MAX_QUERY_COST,
    variables: variables ?? {},
    estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
    createError: (max, actual) =>
      new GraphQLError(`the query costs ${actual}, more than the ${max} one request may cost: ask for smaller pages or fewer nested lists`, {
        extensions: { code: GRAPHQL_TOO_COSTLY, cost: actual, maximumCost: max },
      }),
  });
}
