import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DestinationStream } from 'pino';
import type { TokenCodec } from '@ledger/auth';
import type { LedgerConfig } from '@ledger/config';
import { uuidV7 } from '@ledger/kernel';
import { serveAgentCallsLean } from './agents/lean-agent-routes';
import { RawAgentCalls } from './agents/raw-agent-calls';
import { AppModule } from './app.module';
import type { LedgerWorkflows } from './infrastructure/ledger-workflows';
import { READ_MODELS_PREPARATION, type ReadModelsPreparation, waitForReadModels } from './infrastructure/read-models-preparation';
import { withDefaultVersion } from './http/cyborg-error';
import { parseJsonWithDepthLimit } from './http/json-body-parser';
import { LedgerFastifyAdapter } from './http/ledger-fastify-adapter';
import { ProblemDetailsFilter } from './http/problem-details.filter';
import { answerEarlyWithoutReset } from './http/unread-body';
import { requestValidationPipe } from './http/validation.pipe';
import { countHttpResponses } from './metrics/http-metrics.hook';
import { LedgerMetrics } from './metrics/ledger-metrics';
import { createLedgerLog } from './logging/ledger-log';
import { nestLoggerOf } from './logging/nest-logger';
import { logRequests } from './logging/request-logging';
import { mountApiDocs } from './openapi/mount-api-docs';
import { mountConsole } from './console/mount-console';
import { traceHttpRequests } from './tracing/http-server-spans';

/** What a test changes in the ledger it starts in-process. */
export interface LedgerAppOptions {
  /** Replaces the ledger's own list (`ledgerWorkflows`): tests run small workflows of their own. */
  readonly workflows?: LedgerWorkflows;
  /** Where the log goes instead of stdout: a test keeps it, to show only if it fails. */
  readonly logDestination?: DestinationStream;
}

/** Builds the ledger's Nest application on Fastify; `main` and the e2e tests both start it this way. */
export async function createLedgerApp(config: LedgerConfig, codec: TokenCodec, options: LedgerAppOptions = {}): Promise<NestFastifyApplication> {
  const { workflows, logDestination } = options;
  // The agents' heartbeats and unchanged reports, answered before Fastify sees them (agents/raw-agent-calls.ts).
  const rawAgentCalls = new RawAgentCalls();
  const adapter = new LedgerFastifyAdapter({
    serverFactory: rawAgentCalls.serverFactory,
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => uuidV7(),
    // Trailing slashes are ignored: OpenStack clients ask for both /v2 and /v2/. A path segment may be
    // long: a device profile's name has up to 255 characters (more, percent-encoded), and a delete takes
    // a comma-separated list of them; Node's 16 KiB limit on the request head bounds it anyway.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
    // On shutdown, idle keep-alive connections (agents, Nova, load balancers) are closed rather than
    // waited for: otherwise SIGTERM hangs until the keep-alive timeout (72 s) runs out.
    forceCloseConnections: 'idle',
    rewriteUrl: (request: { url?: string }) => withDefaultVersion(request.url ?? '/'),
  });
  // JSON only: Fastify's own JSON parser, behind a nesting-depth check, and no other (Nest's parsers, with
  // form bodies, are off through `bodyParser: false`; Fastify's text/plain parser is removed), so every other
  // media type gets 415.
  // First of the hooks, so the request's span covers the others.
  if (config.tracing && config.roles.includes('api')) traceHttpRequests(adapter.getInstance());
  adapter.getInstance().removeContentTypeParser('text/plain');
  parseJsonWithDepthLimit(adapter.getInstance(), config.jsonMaxDepth);
  answerEarlyWithoutReset(adapter.getInstance(), config.bodyLimitBytes);
  const metrics = config.metrics ? new LedgerMetrics() : undefined;
  if (metrics) countHttpResponses(adapter.getInstance(), metrics);
  const log = createLedgerLog(config, logDestination);
  logRequests(adapter.getInstance(), log);
  const leanAgentRoutes = serveAgentCallsLean(adapter.getInstance(), metrics, rawAgentCalls);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, codec, workflows, metrics), adapter, {
    logger: nestLoggerOf(log),
    bodyParser: false,
  });
  const preparation = app.get<ReadModelsPreparation | null>(READ_MODELS_PREPARATION);
  // With tracing or a log line per request, every call goes through Fastify's hooks, which make those.
  const raw = config.tracing || log.isLevelEnabled('debug') ? undefined : { ready: () => preparation?.isPrepared() ?? true, bodyLimit: config.bodyLimitBytes, jsonMaxDepth: config.jsonMaxDepth };
  if (config.roles.includes('api')) leanAgentRoutes.attach(app, raw);
  if (preparation && config.roles.includes('api')) adapter.getInstance().addHook('onRequest', waitForReadModels(preparation));
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.useGlobalPipes(requestValidationPipe());
  app.enableShutdownHooks();
  if (config.roles.includes('api')) {
    mountApiDocs(app);
    await mountConsole(app);
  }
  if (config.auth.mode === 'keystone') {
    const keystone = config.auth.keystone;
    new Logger('Auth').log(
      `LEDGER_AUTH=keystone: tokens are checked with Keystone at ${keystone?.authUrl}, each validation trusted for ${keystone?.tokenCacheSeconds} s; ` +
        (config.auth.acceptLedgerTokens ? "the ledger's own tokens (agents') are accepted too" : "the ledger's own tokens are refused (LEDGER_AUTH_ACCEPT_LEDGER_TOKENS=false)"),
    );
  }
  if (config.devNoAuth) {
    new Logger('Auth').warn('LEDGER_DEV_NO_AUTH is on: requests without a token act as admin. Never run like this outside a laptop.');
  }
  return app;
}
