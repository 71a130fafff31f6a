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

/** Fastify's own errors (URL routing, body parsing) by their `code`, as the ledger's codes and words. */
const FASTIFY_ERRORS: Record<string, readonly [code: string, status: number, message: string]> = {
  FST_ERR_BAD_URL: ['REQUEST.BAD_URL', 400, 'the URL has a malformed percent-escape (% not followed by two hex digits, or not UTF-8)'],
  FST_ERR_MAX_PARAM_LENGTH: ['REQUEST.URL_TOO_LONG', 414, 'a path segment of the URL is too long'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['REQUEST.MALFORMED_JSON', 400, 'the body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['REQUEST.MALFORMED_JSON', 400, 'the body is empty but its Content-Type says JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['REQUEST.TOO_LARGE', 413, 'the body is too large: the ledger accepts at most LEDGER_BODY_LIMIT_BYTES'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['REQUEST.UNSUPPORTED_MEDIA_TYPE', 415, 'the body must be JSON, sent as Content-Type: application/json'],
};

/**
 * Every error that can leave a request, as a LedgerError: ours pass
 * through; Fastify's and Nest's get a stable code; anything else is an
 * internal error whose details stay in the log.
 */
export function toLedgerError(error: unknown): LedgerError {
  if (error instanceof LedgerError) return error;
  const fastify = fastifyErrorOf(error);
  if (fastify) return new LedgerError(...fastify);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return new LedgerError(STATUS_CODES[status] ?? `HTTP.${status}`, status, messageOf(error.getResponse(), error.message));
  }
  return new LedgerError('INTERNAL', 500, 'the ledger failed to handle this request; the error is in its log');
}

function fastifyErrorOf(error: unknown): readonly [string, number, string] | undefined {
  if (!(error instanceof Error) || error.name !== 'FastifyError') return undefined;
  const { code, statusCode } = error as Error & { code?: string; statusCode?: number };
  const known = code === undefined ? undefined : FASTIFY_ERRORS[code];
  if (known) return known;
  // Any other Fastify error that blames the request keeps its status, under the generic code of that status.
  return statusCode !== undefined && statusCode >= 400 && statusCode < 500 ? [STATUS_CODES[statusCode] ?? `HTTP.${statusCode}`, statusCode, error.message] : undefined;
}

function messageOf(response: string | object, fallback: string): string {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return fallback;
}
