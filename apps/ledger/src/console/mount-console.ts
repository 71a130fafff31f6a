import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CONSOLE_HEADERS } from './console-headers';
import { CONSOLE_PATH } from './console-paths';

/**
 * The console's files: apps/ledger/console in the tree, copied beside the
 * compiled code into dist/ by the build (scripts/build/build-stamp.js,
 * ASSET_FOLDERS), so the same relative path holds for both.
 */
export const CONSOLE_ROOT = join(__dirname, '..', '..', 'console');

/**
 * Serves the operator's web console (docs/operations.md, "Console"): static
 * pages and browser modules, public like /docs because they hold no data —
 * every figure on them comes from the API, called with the token the
 * operator signs in with. The routes live in their own Fastify scope so the
 * console's headers never touch the API's answers.
 */
export async function mountConsole(app: NestFastifyApplication): Promise<void> {
  await app.getHttpAdapter().getInstance().register(
    async (scope) => {
      scope.addHook('onSend', async (_request, reply) => {
        reply.headers(CONSOLE_HEADERS);
      });
      await scope.register(fastifyStatic, { root: CONSOLE_ROOT, prefix: '/', decorateReply: false, wildcard: false, cacheControl: false });
    },
    { prefix: CONSOLE_PATH },
  );
}
