import { HttpException } from '@nestjs/common';
import { LedgerError } from '@ledger/kernel';

const STATUS_CODES: Record<number, string> = {
  400: 'REQUEST.BAD',
  401: 'AUTH.UNAUTHENTICATED',
  403: 'AUTH.FORBIDDEN',
  404: 'ROUTE.NOT_FOUND',
  405: 'ROUTE.METHOD_NOT_ALLOWED',
  413: 'REQUEST.TOO_LARGE',
  415: 'REQUEST.UNSUPPORTED_MEDIA_TYPE',
};

/**
 * Every error that can leave a request handler, as a LedgerError: ours pass
 * through; Nest's and Fastify's get a stable code (Nest hands Fastify's body
 * parser errors over as HttpExceptions carrying only status and message, so
 * malformed JSON is recognised by its message); anything else is an internal
 * error whose details stay in the log.
 */
export function toLedgerError(error: unknown): LedgerError {
  if (error instanceof LedgerError) return error;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const message = messageOf(error.getResponse(), error.message);
    if (status === 400 && /JSON/i.test(message)) return new LedgerError('REQUEST.MALFORMED_JSON', 400, 'the body is not valid JSON');
    return new LedgerError(STATUS_CODES[status] ?? `HTTP.${status}`, status, message);
  }
  return new LedgerError('INTERNAL', 500, 'the ledger failed to handle this request; the error is in its log');
}

function messageOf(response: string | object, fallback: string): string {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return fallback;
}
