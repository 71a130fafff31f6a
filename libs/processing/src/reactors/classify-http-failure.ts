import { ReactorRejectedError, ReactorUnavailableError } from './reactor.errors';

export type ReactorFailure = ReactorUnavailableError | ReactorRejectedError;

/**
 * What an HTTP answer means for a reactor, the same for every adapter:
 * undefined for 2xx (acknowledged); unavailable for 5xx, 429 and 408 (the
 * outside is down or busy), 409 (a concurrent change: try again) and 401/403
 * (the outside refuses our credentials, not the event: an operator fixes the
 * configuration and nothing should be parked meanwhile); rejected for every
 * other status (this event is bad).
 */
export function classifyHttpStatus(status: number, what: string, body?: unknown): ReactorFailure | undefined {
  if (status >= 200 && status < 300) return undefined;
  const facts = { status, ...(body === undefined ? {} : { body }) };
  const message = `${what} answered ${status}${body === undefined ? '' : `: ${JSON.stringify(body).slice(0, 500)}`}`;
  if (status >= 500 || [401, 403, 408, 409, 429].includes(status)) return new ReactorUnavailableError(message, facts);
  return new ReactorRejectedError(message, facts);
}

/**
 * What a thrown error means: a typed reactor error stays what it is;
 * anything `fetch` throws (refused connection, DNS, reset, timeout, abort)
 * means the outside could not be reached.
 */
export function classifyFetchFailure(error: unknown, what: string): ReactorFailure {
  if (error instanceof ReactorUnavailableError || error instanceof ReactorRejectedError) return error;
  const reason = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
  return new ReactorUnavailableError(`${what} unreachable: ${reason}`);
}
