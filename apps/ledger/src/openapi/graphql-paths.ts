import type { OpenAPIObject } from '@nestjs/swagger';

const GRAPHQL_RESPONSE = {
  type: 'object',
  properties: {
    data: { type: 'object', nullable: true, description: 'What the query selected; null when the request was refused whole' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message', 'extensions'],
        properties: {
          message: { type: 'string' },
          path: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
          extensions: {
            type: 'object',
            required: ['code', 'status'],
            properties: { code: { type: 'string', example: 'GRAPHQL.TOO_COSTLY' }, status: { type: 'integer', example: 400 } },
            additionalProperties: true,
          },
        },
      },
    },
  },
};

const responses = {
  '200': { description: 'The data; `errors` lists the fields that could not be read (e.g. AUTH.ROLE_REQUIRED on one field)', content: { 'application/json': { schema: GRAPHQL_RESPONSE } } },
  '400': { description: 'Refused whole: GRAPHQL.INVALID_QUERY, GRAPHQL.TOO_DEEP, GRAPHQL.TOO_COSTLY, REQUEST.INVALID (code in X-Error-Code and in each error\'s extensions)', content: { 'application/json': { schema: GRAPHQL_RESPONSE } } },
  '401': { description: 'No valid token: AUTH.TOKEN_MISSING, AUTH.TOKEN_INVALID, AUTH.TOKEN_EXPIRED', content: { 'application/json': { schema: GRAPHQL_RESPONSE } } },
  '403': { description: 'Every field the query selected is refused to the caller (AUTH.ROLE_REQUIRED, QUOTA.PROJECT_FORBIDDEN)', content: { 'application/json': { schema: GRAPHQL_RESPONSE } } },
};

const description =
  'GraphQL over the same read models as this API (docs/graphql.md; schema: apps/ledger/src/graphql/schema.graphql). ' +
  'The same tokens, roles and project filters as the REST routes; `X-Ledger-Min-Position` is honoured. ' +
  'Queries deeper than 15 levels or costing more than 25,000 are refused.';

/** /graphql is Mercurius's route, not a controller's: it is described here so the document lists every route the app serves. */
export function withGraphqlPaths(document: OpenAPIObject): OpenAPIObject {
  document.paths['/graphql'] = {
    post: {
      tags: ['graphql'],
      summary: 'A GraphQL query (body: query, variables, operationName)',
      description,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['query'],
              properties: { query: { type: 'string', example: '{ hosts(first: 10) { edges { node { hostname } } } }' }, variables: { type: 'object' }, operationName: { type: 'string' } },
            },
          },
        },
      },
      responses,
    },
    get: {
      tags: ['graphql'],
      summary: 'A GraphQL query in the URL (?query=…&variables=…)',
      description,
      parameters: [
        { name: 'query', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'variables', in: 'query', required: false, schema: { type: 'string', description: 'JSON' } },
        { name: 'operationName', in: 'query', required: false, schema: { type: 'string' } },
      ],
      responses,
    },
  };
  return document;
}
