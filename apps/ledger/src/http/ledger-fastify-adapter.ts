import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { answerClientError } from './client-error';
import { sendError } from './send-error';
import { answerUnmatchedRoute } from './unmatched-route';

/**
 * Nest's Fastify adapter, with Fastify's own errors answered by the ledger:
 * what Node's HTTP parser refuses (`clientErrorHandler`), a malformed URL (`frameworkErrors`), body-parser errors (the error
 * handler: Nest's would turn them into bare HttpExceptions, losing Fastify's
 * error code) and unmatched routes (404, or 405 with `Allow`). Errors of
 * Nest's handlers still go through ProblemDetailsFilter; both answer with
 * `sendError`. Nest calls the two setters while it initialises; the handlers
 * it offers are replaced by these.
 */
export class LedgerFastifyAdapter extends FastifyAdapter {
  constructor(options: Omit<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>) {
    super({ ...options, frameworkErrors: sendError, clientErrorHandler: answerClientError });
    // Set before any route: a route keeps the error handler of the moment Fastify loads it, and the GraphQL
    // module's plugin registration (during Nest's init) loads the controllers' routes before Nest calls the setter.
    this.getInstance().setErrorHandler(sendError);
  }

  /** Nest's call, late in its init: the handler is in place since construction. */
  override setErrorHandler(): FastifyInstance {
    return this.getInstance();
  }

  override setNotFoundHandler(): FastifyInstance {
    const fastify = this.getInstance();
    return fastify.setNotFoundHandler((request, reply) => answerUnmatchedRoute(fastify, request, reply));
  }
}
