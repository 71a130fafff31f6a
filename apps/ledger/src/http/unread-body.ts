import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export interface DrainBounds {
  /** The longest declared body the ledger reads and throws away after answering early (64 MiB); a longer one is not read. */
  readonly maxBytes: number;
  /** How long a client may take to finish sending a body the ledger has already answered (10 s); then its connection is cut. */
  readonly maxMs: number;
}

const DEFAULT_BOUNDS: DrainBounds = { maxBytes: 64 * 1_048_576, maxMs: 10_000 };

/**
 * Lets every client read an answer given before its body was read (413 on
 * Content-Length, 415, an error while the body still streams in). Fastify
 * answers those with `Connection: close`, and Node then closes the socket
 * with the body still unread: the kernel resets the connection, and a client
 * still writing gets a broken pipe instead of the answer. So the connection
 * is kept and the rest of the body read and thrown away, within DrainBounds
 * (as Go's net/http and nginx's lingering close do). A client that sent
 * `Expect: 100-continue` with a body over the limit is answered without the
 * `100 Continue`, so it never sends the body and its connection closes at
 * once.
 */
export function answerEarlyWithoutReset(fastify: FastifyInstance, bodyLimit: number, bounds: DrainBounds = DEFAULT_BOUNDS): void {
  const refusedContinue = new WeakSet<IncomingMessage>();
  fastify.server.on('checkContinue', (request, response) => {
    if (Number(request.headers['content-length']) > bodyLimit) refusedContinue.add(request);
    else response.writeContinue();
    fastify.server.emit('request', request, response);
  });
  // In callback form: it runs for every answer, where an async hook costs a promise each time.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (!(raw.complete || refusedContinue.has(raw) || Number(raw.headers['content-length']) > bounds.maxBytes)) {
      reply.removeHeader('connection');
      reply.raw.once('finish', () => cutOffSlowSender(raw, bounds.maxMs));
    }
    done(null, payload);
  });
}

/** Node reads and discards the rest of an answered request; a sender that takes longer than `maxMs` loses the connection. */
function cutOffSlowSender(request: IncomingMessage, maxMs: number): void {
  if (request.complete) return;
  const timer = setTimeout(() => request.socket.destroy(), maxMs);
  finished(request, () => clearTimeout(timer));
}
