import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { GRAPHQL_EXPLORER_PATH } from '../console/console-paths';
import { withGraphqlPaths } from './graphql-paths';

export const NATIVE_OPENAPI_PATH = '/api/v1/openapi.json';

/** The OpenAPI document, generated from the controllers and their DTOs. */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Accelerator Ledger — native API')
    .setDescription(
      'Inventory of accelerators as projected from the event log. Errors are RFC 9457 problem details with a stable `code`. ' +
        'Authenticate with `X-Auth-Token: <token>` (or `Authorization: Bearer <token>`). ' +
        `GraphQL is served at \`POST /graphql\` (listed below); try queries in the [GraphQL explorer](${GRAPHQL_EXPLORER_PATH}), which signs in with the same token.`,
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Auth-Token' }, 'token')
    .addSecurityRequirements('token')
    .build();
  return withOwnPath(withProblemResponses(withGraphqlPaths(SwaggerModule.createDocument(app, config))));
}

/** The document lists itself, as every route the app serves is listed in one of its documents. */
function withOwnPath(document: OpenAPIObject): OpenAPIObject {
  document.paths[NATIVE_OPENAPI_PATH] = {
    get: {
      tags: ['documents'],
      summary: 'This document (no token); Cyborg\'s v2 API has its own at /v2/openapi.json, and /docs shows both',
      security: [],
      responses: { '200': { description: 'OpenAPI 3.0', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return document;
}

/** RFC 9457 problem details, the shape of every error response (docs/errors.md lists the codes). */
const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', example: 'urn:accelerator-ledger:problem:AUTH.WRONG_HOST' },
    title: { type: 'string', example: 'Forbidden' },
    status: { type: 'integer', example: 403 },
    detail: { type: 'string' },
    code: { type: 'string', description: 'stable error code', example: 'AUTH.WRONG_HOST' },
    instance: { type: 'string', example: '/api/v1/hosts/compute-2/report' },
  },
  additionalProperties: true,
};

/** Declares the problem-details error response on every operation, so clients generated from the document know it. */
function withProblemResponses(document: OpenAPIObject): OpenAPIObject {
  document.components = { ...document.components, schemas: { ...document.components?.schemas, Problem: PROBLEM_SCHEMA } };
  const problem = {
    description: 'Error: RFC 9457 problem details with a stable code',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      if (operation && typeof operation === 'object' && 'responses' in operation) {
        operation.responses = { ...operation.responses, default: problem };
      }
    }
  }
  return document;
}
