// The console's only way to the ledger: the same REST and GraphQL APIs as
// every other client, with the signed-in token. A 401 ends the session.
import { signOut, token } from './session.js';

/** A refusal or failure from the API, with its problem code (docs/errors.md) when it has one. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The log position after the last write this page made: reads wait for it, so a change shows at once. */
let seenPosition = 0;

export function sawPosition(position) {
  if (Number.isInteger(position) && position > seenPosition) seenPosition = position;
}

function headers(extra = {}) {
  const all = { 'x-auth-token': token() ?? '', ...extra };
  if (seenPosition > 0) all['x-ledger-min-position'] = String(seenPosition);
  return all;
}

/**
 * The API's own words for a refusal, whichever shape it came in: problem
 * details (native API), a GraphQL answer's first error (refused whole: no
 * data), or Cyborg's `error_message` (v2).
 */
function refusalOf(status, body) {
  const [error] = body?.errors ?? [];
  if (error) return new ApiError(status, error.extensions?.code ?? null, error.message);
  return new ApiError(status, body?.code ?? body?.type?.split(':').pop() ?? null, body?.detail ?? body?.title ?? body?.error_message ?? `HTTP ${status}`);
}

async function answer(response) {
  const body = response.status === 204 ? null : await response.json().catch(() => null);
  if (response.status === 401) signOut();
  if (!response.ok) throw refusalOf(response.status, body);
  return body;
}

/** GET or POST a native API route (/api/v1/…); a write's `position` is remembered for the next reads. */
export async function rest(method, path, body) {
  const init = { method, headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }) };
  if (body !== undefined) init.body = JSON.stringify(body);
  const result = await answer(await fetch(path, init));
  sawPosition(result?.position);
  return result;
}

/** One GraphQL query; its first error is thrown with its code (GRAPHQL.*, AUTH.*, …). */
export async function graphql(query, variables = {}) {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: headers({ 'content-type': 'application/json' }),
    body: JSON.stringify({ query, variables }),
  });
  const body = await answer(response);
  if (body.errors?.length) throw refusalOf(response.status, body);
  return body.data;
}

/** The head of the log, from the public readiness probe. */
export async function headPosition() {
  const ready = await (await fetch('/readyz')).json();
  return ready.headPosition;
}
