import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CONSOLE_PATH, GRAPHQL_EXPLORER_PATH } from '../console/console-paths';
import { CYBORG_V2_OPENAPI_PATH } from './cyborg-v2-openapi';
import { NATIVE_OPENAPI_PATH } from './openapi';

export const API_DOCS_PATH = '/docs';

/** Swagger UI's files, served from the installed swagger-ui-dist: the page works without the internet. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Accelerator Ledger — API</title>
  <link rel="stylesheet" href="${API_DOCS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${API_DOCS_PATH}/favicon-32x32.png">
</head>
<body>
  <nav style="font: 14px system-ui, sans-serif; padding: 8px 20px">Also here: <a href="${GRAPHQL_EXPLORER_PATH}">the GraphQL explorer</a> (POST /graphql, with your token) · <a href="${CONSOLE_PATH}/">the operator's console</a></nav>
  <div id="swagger-ui"></div>
  <script src="${API_DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${API_DOCS_PATH}/swagger-ui-standalone-preset.js"></script>
  <script src="${API_DOCS_PATH}/swagger-initializer.js"></script>
</body>
</html>
`;

const INITIALIZER = `window.onload = () => {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: '${NATIVE_OPENAPI_PATH}', name: 'Native API (/api/v1)' },
      { url: '${CYBORG_V2_OPENAPI_PATH}', name: "Cyborg's v2 API (/v2)" },
    ],
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

/**
 * The human docs page at /docs: Swagger UI over both OpenAPI documents
 * (public, like the documents: it holds no data). Assets are read once, on
 * first request, and kept.
 */
export function mountApiDocsPage(fastify: FastifyInstance): void {
  const root = dirname(require.resolve('swagger-ui-dist/package.json'));
  fastify.get(API_DOCS_PATH, async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  fastify.get(`${API_DOCS_PATH}/swagger-initializer.js`, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(INITIALIZER));
  for (const [file, type] of Object.entries(ASSETS)) {
    let content: Buffer | undefined;
    fastify.get(`${API_DOCS_PATH}/${file}`, async (_request, reply) => {
      content ??= readFileSync(join(root, file));
      return reply.type(type).header('cache-control', 'public, max-age=86400').send(content);
    });
  }
}
