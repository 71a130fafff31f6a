import { LedgerError } from '@ledger/kernel';

/** RFC 9457 problem details, with the ledger's stable `code` and the error's facts as extension members. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly instance?: string;
  readonly [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Problem type URIs name the code, so a client can look it up in docs/errors.md. */
export const problemType = (code: string): string => `urn:accelerator-ledger:problem:${code}`;

export function problemOf(error: LedgerError, instance?: string): ProblemDetails {
  return {
    ...error.facts,
    type: problemType(error.code),
    title: TITLES[error.status] ?? 'Error',
    status: error.status,
    detail: error.message,
    code: error.code,
    ...(instance !== undefined ? { instance } : {}),
  };
}
