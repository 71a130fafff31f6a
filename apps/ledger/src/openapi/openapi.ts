import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export const OPENAPI_PATH = '/api/v1/openapi.json';

/** The OpenAPI document, generated from the controllers and their DTOs. */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Accelerator Ledger — native API')
    .setDescription(
      'Inventory of accelerators as projected from the event log. Errors are RFC 9457 problem details with a stable `code`. ' +
        'Authenticate with `X-Auth-Token: <token>` (or `Authorization: Bearer <token>`).',
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Auth-Token' }, 'token')
    .addSecurityRequirements('token')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the document at OPENAPI_PATH (public: it describes the API, it holds no data). */
export function mountOpenApi(app: NestFastifyApplication): void {
  let document: OpenAPIObject | undefined;
  app
    .getHttpAdapter()
    .getInstance()
    .get(OPENAPI_PATH, async (_request, reply) => {
      document ??= buildOpenApiDocument(app);
      await reply.header('content-type', 'application/json').send(document);
    });
}
