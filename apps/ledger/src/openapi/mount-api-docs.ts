import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { mountApiDocsPage } from './api-docs-page';
import { buildCyborgV2OpenApiDocument, CYBORG_V2_OPENAPI_PATH } from './cyborg-v2-openapi';
import { buildOpenApiDocument, NATIVE_OPENAPI_PATH } from './openapi';

/**
 * Serves the native API's document, Cyborg's v2 document and the docs page
 * over both (public: they describe the API and hold no data). The native
 * document is built on first request, once every controller is known.
 */
export function mountApiDocs(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  let native: OpenAPIObject | undefined;
  fastify.get(NATIVE_OPENAPI_PATH, async (_request, reply) => {
    native ??= buildOpenApiDocument(app);
    return reply.type('application/json').send(native);
  });
  const v2 = buildCyborgV2OpenApiDocument();
  fastify.get(CYBORG_V2_OPENAPI_PATH, async (_request, reply) => reply.type('application/json').send(v2));
  mountApiDocsPage(fastify);
}
