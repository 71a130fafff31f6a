import { Agent, request as httpRequest } from 'node:http';
import type { RecordedEvent } from '@ledger/eventstore';

/**
 * The codes docs/errors.md lists as HTTP answers, with their status: every
 * table row whose first cell names codes and whose second is a status
 * (rows with `—` are not HTTP answers and are left out).
 */
export function documentedCodes(markdown: string): Map<string, number> {
  const codes = new Map<string, number>();
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || !/^\d{3}$/.test(cells[2])) continue;
    for (const match of cells[1].matchAll(/`([A-Z0-9_]+(?:\.[A-Z0-9_]+)+)`/g)) codes.set(match[1], Number(cells[2]));
  }
  return codes;
}

/**
 * The 4xx answers docs/errors.md ("What a failed request records") says
 * leave a trace in the log; every other 4xx must append nothing.
 */
export const TRACE_CODES: ReadonlySet<string> = new Set(['ARQ.BIND_FAILED', 'JOB.ALREADY_FINISHED', 'QUOTA.EXCEEDED']);

/** What one fuzzed request got: an answer, no answer within the bound, or a broken connection. */
export type Outcome =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Record<string, string | string[] | undefined>; readonly body: string }
  | { readonly kind: 'hang' }
  | { readonly kind: 'error'; readonly message: string };

/** Reuses connections between requests, as a client in a loop does (and as fast). */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * Sends one request with Node's HTTP client, path and headers as given (no
 * URL normalisation, unlike fetch), and waits at most `timeoutMs` for the
 * whole answer.
 */
export function send(url: string, method: string, path: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      settle({ kind: 'hang' });
      request.destroy();
    }, timeoutMs);
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
    const request = httpRequest(
      { agent, host: hostname, port, method, path, headers: { ...latin1Headers(headers), ...(payload ? { 'content-length': String(payload.length) } : {}) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => settle({ kind: 'answer', status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (error) => settle({ kind: 'error', message: error.message }));
      },
    );
    request.on('error', (error) => settle({ kind: 'error', message: error.message }));
    request.end(payload);
  });
}

/** Header values as the bytes of their UTF-8, which is what a client puts on the wire; control characters dropped (no client can send them). */
const latin1Headers = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Buffer.from(value, 'utf8').toString('latin1').replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '')]));

/** Why an answer breaks the rules of docs/errors.md, or undefined when it keeps them. */
export function checkAnswer(
  outcome: Outcome,
  api: 'native' | 'v2',
  codes: ReadonlyMap<string, number>,
  appendedByRequest: readonly RecordedEvent[],
): string | undefined {
  if (outcome.kind === 'hang') return 'hang: no answer within the bound';
  if (outcome.kind === 'error') return `no answer: ${outcome.message}`;
  const { status } = outcome;
  if (status >= 500) return `${status}: ${outcome.body.slice(0, 300)}`;
  if (status < 400) return undefined;
  const code = outcome.headers['x-error-code'];
  if (typeof code !== 'string') return `${status} without X-Error-Code`;
  if (codes.get(code) !== status) return `${status} ${code}: ${codes.has(code) ? `docs/errors.md gives ${codes.get(code)}` : 'not in docs/errors.md'}`;
  if (api === 'native' && codeInBody(safeJson(outcome.body)) !== code) return `${status} ${code}: the body's code is not the header's`;
  if (appendedByRequest.length > 0 && !TRACE_CODES.has(code)) {
    return `${status} ${code} appended ${appendedByRequest.map((event) => event.type).join(', ')}, and docs/errors.md lists no trace for it`;
  }
  return undefined;
}

/** The code a native answer's body carries: a problem's `code`, or on /graphql the first error's `extensions.code`. */
const codeInBody = (body: any): unknown => body?.code ?? body?.errors?.[0]?.extensions?.code;

const safeJson = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Closes the kept-alive sockets, so Jest exits. */
export const closeFuzzConnections = (): void => agent.destroy();
