import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './send-error';

/**
 * The one error filter of Nest's handlers: every error is answered by
 * `sendError`. A GraphQL resolver's error is handed back to GraphQL, which
 * answers it in the response's `errors` (graphql/graphql-errors.ts).
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): unknown {
    if (host.getType<string>() === 'graphql') return error;
    const http = host.switchToHttp();
    sendError(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
    return undefined;
  }
}
