/**
 * The floor under the ledger's agent routes (agents_http_floor_cpu_ms): a
 * bare Node HTTP server, run as its own process (`node bare-agent-server.js`,
 * its port sent over IPC), that does the least an agent's call needs —
 * reads and parses the JSON body, answers the ledger's answer shape — and
 * nothing else: no routing library, hooks, authorization, validation or
 * store. Keep-alive as Fastify's default (72 s), as the ledger serves.
 * Its CPU per call is what any per-request HTTP server on this machine's
 * Node pays; the ledger's records are read against it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const FASTIFY_KEEP_ALIVE_MS = 72_000;

/** The ledger's answers to a heartbeat and to an unchanged report; `/readyz` gives a head that never moves. */
function answer(method: string | undefined, path: string, hostname: string): object | undefined {
  if (method === 'POST' && path.endsWith('/heartbeat')) return { hostname, appended: 0, position: null, jobsWaiting: 0, unknownDevices: [] };
  if (method === 'PUT' && path.endsWith('/report')) return { hostname, appended: 0, position: null, events: [] };
  if (method === 'GET' && path === '/readyz') return { status: 'ready', headPosition: 0 };
  return undefined;
}

function serve(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const path = request.url ?? '/';
    if (chunks.length > 0) JSON.parse(Buffer.concat(chunks).toString('utf8'));
    // /api/v1/hosts/<hostname>/<call>
    const body = answer(request.method, path, path.split('/')[4] ?? '');
    const text = JSON.stringify(body ?? { statusCode: 404 });
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  });
}

const server = createServer(serve);
server.keepAliveTimeout = FASTIFY_KEEP_ALIVE_MS;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address !== null ? address.port : 0 });
});
process.on('disconnect', () => process.exit(0));
