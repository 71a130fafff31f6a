import { type ClientRequest, type IncomingMessage, request as plainRequest, type RequestOptions } from 'node:http';

/** What came back: the status and the whole body as text. */
export interface HttpReply {
  readonly status: number;
  readonly text: string;
}

/** The request got no complete answer within its time. */
export class HttpTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'HttpTimeoutError';
  }
}

export interface HttpExchange {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
}

/**
 * One request with node:http (node:https for an https URL), the body read
 * whole. Not fetch: a CLI call is one short process, and fetch's first use
 * loads undici and compiles its WebAssembly parser, which cost more CPU than
 * the rest of a `ledgerctl service-list` together. Connection errors reject
 * with Node's own error (its `code`: ECONNREFUSED…).
 */
export async function httpExchange(url: URL, exchange: HttpExchange): Promise<HttpReply> {
  const send: (options: RequestOptions, answer: (response: IncomingMessage) => void) => ClientRequest =
    url.protocol === 'https:' ? (await import('node:https')).request : plainRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      { hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, path: `${url.pathname}${url.search}`, method: exchange.method, headers: exchange.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.setTimeout(exchange.timeoutMs, () => request.destroy(new HttpTimeoutError(exchange.timeoutMs)));
    request.on('error', reject);
    request.end(exchange.body);
  });
}
