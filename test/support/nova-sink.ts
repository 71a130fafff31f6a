import { createServer, type IncomingMessage, type Server } from 'node:http';

/** What Nova's os-server-external-events received. */
export interface NovaExternalEvent {
  readonly name: string;
  readonly server_uuid: string;
  readonly tag: string;
  readonly status: string;
}

/**
 * A stand-in for Nova's compute API that records `os-server-external-events`
 * posts (what Cyborg — and the ledger — send when binds finish) and lets a
 * test wait for them. Answers 200 like Nova, or whatever `respondWith` says.
 */
export interface NovaSink {
  readonly url: string;
  readonly events: NovaExternalEvent[];
  readonly requests: { headers: IncomingMessage['headers']; body: unknown }[];
  respondWith(status: number): void;
  waitFor(predicate: (events: NovaExternalEvent[]) => boolean, timeoutMs?: number): Promise<NovaExternalEvent[]>;
  close(): Promise<void>;
}

export async function startNovaSink(): Promise<NovaSink> {
  const events: NovaExternalEvent[] = [];
  const requests: { headers: IncomingMessage['headers']; body: unknown }[] = [];
  const waiters = new Set<() => void>();
  let status = 200;
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const body = text ? (JSON.parse(text) as { events?: NovaExternalEvent[] }) : {};
      requests.push({ headers: request.headers, body });
      if (request.url?.endsWith('/os-server-external-events') && status === 200) events.push(...(body.events ?? []));
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ events: (body.events ?? []).map((event) => ({ ...event, code: status })) }));
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v2.1`,
    events,
    requests,
    respondWith: (next) => (status = next),
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
