import type { MercuriusDriverConfig } from '@nestjs/mercurius';
import type { AuthOptions } from '@ledger/auth';
import type { ConsistencyService } from '../http/consistency.service';
import { formatGraphqlErrors } from './graphql-errors';
import { MAX_QUERY_DEPTH, refuseCostlyQuery } from './graphql-limits';
import { graphqlRequestHook } from './graphql-request.hook';
import { GRAPHQL_SCHEMA_OPTIONS } from './graphql-schema.options';

/** Mercurius as the ledger runs it: no IDE, no batches, no subscriptions; limits on depth and cost. */
export function mercuriusOptions(auth: AuthOptions, consistency: ConsistencyService): MercuriusDriverConfig {
  return {
    ...GRAPHQL_SCHEMA_OPTIONS,
    autoSchemaFile: true,
    path: '/graphql',
    graphiql: false,
    queryDepth: MAX_QUERY_DEPTH,
    // Documents are parsed and validated once (Mercurius's cache) and compiled with graphql-jit from their second use;
    // the cost, which depends on each request's variables, is checked before each execution.
    jit: 1,
    hooks: { preExecution: refuseCostlyQuery },
    errorFormatter: formatGraphqlErrors,
    additionalRouteOptions: { preHandler: graphqlRequestHook(auth, consistency) },
    // Guards run on field resolvers too: a nested list checks the same roles as its top-level query.
    fieldResolverEnhancers: ['guards'],
  };
}
