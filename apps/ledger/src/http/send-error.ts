import { Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LedgerError, withLogContext } from '@ledger/kernel';
import { setVersionHeaders } from '../cyborg-v2/microversion.interceptor';
import { cyborgErrorOf, isCyborgPath } from './cyborg-error';
import { problemOf } from './problem-details';
import { requestLogContext } from './request-ids';
import { toLedgerError } from './to-ledger-error';

const logger = new Logger('HTTP');

/**
 * Answers any error as a LedgerError: RFC 9457 problem details on the native
 * API, Cyborg's shape under /v2, the code in `X-Error-Code` either way. Both
 * the Nest filter and Fastify's own error hooks answer through here.
 */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const ledgerError = toLedgerError(error);
  // With the request's ids: errors of body parsing and routing are answered before the request's log context is entered.
  withLogContext(requestLogContext(request), () => logError(error, ledgerError, request, reply.sent));
  if (reply.sent) return;
  reply.status(ledgerError.status).header('x-error-code', ledgerError.code);
  if (isCyborgPath(request.url)) {
    setVersionHeaders(reply);
    reply.header('content-type', 'application/json').send(cyborgErrorOf(ledgerError));
  } else {
    reply.header('content-type', 'application/problem+json').send(problemOf(ledgerError, request.url));
  }
}

/**
 * A fault of the ledger (an untyped error, answered 500) is an ERROR with
 * its stack. A typed error is one line without a stack: debug when the
 * client caused it (4xx), warn when it is a state the client can wait out
 * (a 503 such as `CONSISTENCY.NOT_CAUGHT_UP` or `EVENTSTORE.CLOSED`).
 */
function logError(error: unknown, answer: LedgerError, request: FastifyRequest, alreadySent: boolean): void {
  const line = `${request.method} ${request.url} → ${answer.status} ${answer.code}`;
  const fault = answer.status >= 500 && !(error instanceof LedgerError);
  if (fault || alreadySent) {
    logger.error(`${line}${alreadySent ? ', after the answer was sent' : ''}: ${(error as Error)?.stack ?? String(error)}`);
  } else if (answer.status >= 500) {
    logger.warn(`${line}: ${answer.message}`);
  } else {
    logger.debug(line);
  }
}
