import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type ExecutionResult, GraphQLError } from 'graphql';
import { LedgerError } from '@ledger/kernel';
import { toLedgerError } from '../http/to-ledger-error';

/** Mercurius's code for a query nested deeper than its `queryDepth`. */
const MERCURIUS_TOO_DEEP = 'MER_ERR_GQL_QUERY_DEPTH';

const GRAPHQL_TOO_DEEP = 'GRAPHQL.TOO_DEEP';
/** Not GraphQL (a syntax error), or not valid against the schema (an unknown field, a wrong argument type). */
const GRAPHQL_INVALID_QUERY = 'GRAPHQL.INVALID_QUERY';

const logger = new Logger('GraphQL');

interface CodedError {
  readonly message: string;
  readonly locations?: GraphQLError['locations'];
  readonly path?: GraphQLError['path'];
  readonly extensions: { readonly code: string; readonly status: number } & Record<string, unknown>;
}

/**
 * Every GraphQL error with the ledger's stable code in `extensions.code`
 * (docs/errors.md) and its HTTP status in `extensions.status`. A request
 * refused whole (no token, a query too deep, too costly or invalid) is
 * answered with that status and `X-Error-Code`, as the REST API answers, as
 * is one whose every top-level field failed; errors of some fields leave the
 * rest of the data and status 200.
 */
export function formatGraphqlErrors(execution: ExecutionResult, context: { reply?: FastifyReply }) {
  const errors = (execution.errors ?? []).flatMap(unwrapped).map(coded);
  const refusal = refusedWhole(execution.data, errors) ? errors[0] : undefined;
  if (refusal !== undefined) context.reply?.header('x-error-code', refusal.extensions.code);
  return { statusCode: refusal?.extensions.status ?? 200, response: { data: execution.data ?? null, errors } };
}

/** No data at all, or every field the query asked for at the top failed: nothing of what was asked came back. */
function refusedWhole(data: ExecutionResult['data'], errors: readonly CodedError[]): boolean {
  if (!data) return true;
  const failed = new Set(errors.filter((error) => error.path?.length === 1).map((error) => error.path![0]));
  return Object.entries(data).every(([field, value]) => value === null && failed.has(field));
}

/**
 * Mercurius's and its route schema's refusals of the request's shape (no
 * query, variables that are not JSON, a batch): 4xx errors that are neither
 * the ledger's nor Fastify's body-parsing errors (those keep their REST codes).
 */
function refusesRequestShape(original: Error): boolean {
  const { statusCode, code } = original as { statusCode?: unknown; code?: unknown };
  const mercurius = typeof code === 'string' && code.startsWith('MER_ERR_');
  const routeSchema = 'validation' in original && typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500;
  return mercurius || routeSchema;
}

/** Mercurius reports a refused document as one error holding the validation errors. */
function unwrapped(error: GraphQLError): GraphQLError[] {
  const inner = (error.originalError as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(inner)) return [error];
  return inner.map((each: Error) => (each instanceof GraphQLError ? each : new GraphQLError(each.message, { originalError: each })));
}

function coded(error: GraphQLError): CodedError {
  const where = { message: error.message, locations: error.locations, path: error.path };
  const original = error.originalError;
  if ((original as { code?: unknown } | undefined)?.code === MERCURIUS_TOO_DEEP) return { ...where, extensions: { code: GRAPHQL_TOO_DEEP, status: 400 } };
  if (original === undefined || original instanceof GraphQLError || refusesRequestShape(original)) {
    const own = typeof error.extensions.code === 'string' && error.extensions.code.startsWith('GRAPHQL.');
    return { ...where, extensions: own ? { ...error.extensions, code: error.extensions.code as string, status: 400 } : { code: GRAPHQL_INVALID_QUERY, status: 400 } };
  }
  const ledgerError = toLedgerError(original);
  if (!(original instanceof LedgerError) && ledgerError.status >= 500) logger.error(`${error.path?.join('.') ?? 'request'}: ${original.stack ?? original.message}`);
  return { ...where, message: ledgerError.message, extensions: { ...ledgerError.facts, code: ledgerError.code, status: ledgerError.status } };
}
