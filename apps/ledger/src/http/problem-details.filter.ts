import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { problemOf } from './problem-details';
import { toLedgerError } from './to-ledger-error';

/** Renders every error of the native API as RFC 9457 problem details. */
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
    reply
      .status(ledgerError.status)
      .header('content-type', 'application/problem+json')
      .send(problemOf(ledgerError, request.url));
  }
}
