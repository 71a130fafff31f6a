import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setVersionHeaders } from '../cyborg-v2/microversion.interceptor';
import { cyborgErrorOf, isCyborgPath } from './cyborg-error';
import { problemOf } from './problem-details';
import { toLedgerError } from './to-ledger-error';

/**
 * The one error filter: every error becomes a LedgerError, rendered as RFC
 * 9457 problem details on the native API and in Cyborg's shape under /v2.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const ledgerError = toLedgerError(error);
    if (ledgerError.status >= 500) {
      this.logger.error(`${request.method} ${request.url} failed: ${(error as Error)?.stack ?? String(error)}`);
    }
    reply.status(ledgerError.status).header('x-error-code', ledgerError.code);
    if (isCyborgPath(request.url)) {
      setVersionHeaders(reply);
      reply.header('content-type', 'application/json').send(cyborgErrorOf(ledgerError));
    } else {
      reply.header('content-type', 'application/problem+json').send(problemOf(ledgerError, request.url));
    }
  }
}
