import { createServer, type IncomingMessage, type Server } from 'node:http';

/** What Nova's os-server-external-events received. */
export interface NovaExternalEvent {
  readonly name: string;
  readonly server_uuid: string;
  readonly tag: string;
  readonly status: string;
}

/** One accepted post: its `X-OpenStack-Request-ID` (the sender's idempotency key) and events. */
export interface NovaDelivery {
  readonly requestId: string | undefined;
  readonly events: readonly NovaExternalEvent[];
}

/**
 * A stand-in for Nova's compute API that records `os-server-external-events`
 * posts (what Cyborg — and the ledger — send when binds finish) and lets a
 * test wait for them. Answers 200 like Nova, or whatever `respondWith` says:
 * 207 answers each event with code 422 (Nova's "instance not on a host yet",
 * LP#1855752), and is still an acceptance. `deliveries` keeps the accepted
 * posts; `uniqueDeliveries()` drops repeats of a request id, as a receiver
 * deduplicating redeliveries by event id would.
 */
export interface NovaSink {
  readonly url: string;
  /** Every event of every accepted post, repeats included. */
  readonly events: NovaExternalEvent[];
  readonly deliveries: NovaDelivery[];
  readonly requests: { headers: IncomingMessage['headers']; body: unknown }[];
  respondWith(status: number): void;
  uniqueDeliveries(): NovaDelivery[];
  waitFor(predicate: (events: NovaExternalEvent[]) => boolean, timeoutMs?: number): Promise<NovaExternalEvent[]>;
  close(): Promise<void>;
}

export interface NovaSinkOptions {
  /** Whether the request's X-Auth-Token is good (a Keystone validation, as Nova's keystonemiddleware does); refused: 401, nothing recorded. */
  readonly authorize?: (token: string | undefined) => Promise<boolean>;
}

export async function startNovaSink(options: NovaSinkOptions = {}): Promise<NovaSink> {
  const events: NovaExternalEvent[] = [];
  const deliveries: NovaDelivery[] = [];
  const requests: { headers: IncomingMessage['headers']; body: unknown }[] = [];
  const waiters = new Set<() => void>();
  let status = 200;
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', async () => {
      const body = text ? (JSON.parse(text) as { events?: NovaExternalEvent[] }) : {};
      requests.push({ headers: request.headers, body });
      if (options.authorize && !(await options.authorize(request.headers['x-auth-token'] as string | undefined))) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' } }));
        return;
      }
      const accepted = status === 200 || status === 207;
      if (request.url?.endsWith('/os-server-external-events') && accepted) {
        events.push(...(body.events ?? []));
        deliveries.push({ requestId: request.headers['x-openstack-request-id'] as string | undefined, events: body.events ?? [] });
      }
      const code = status === 207 ? 422 : status;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ events: (body.events ?? []).map((event) => ({ ...event, code })) }));
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v2.1`,
    events,
    deliveries,
    requests,
    respondWith: (next) => (status = next),
    uniqueDeliveries: () => deliveries.filter((delivery, index) => delivery.requestId === undefined || deliveries.findIndex((other) => other.requestId === delivery.requestId) === index),
    waitFor(predicate, timeoutMs = 10_000) {
      if (predicate(events)) return Promise.resolve(events);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Nova sink: condition not met within ${timeoutMs} ms; received ${JSON.stringify(events)}`));
        }, timeoutMs);
        const check = () => {
          if (!predicate(events)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(events);
        };
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
