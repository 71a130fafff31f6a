import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { uuidV7, withLogContext } from '@ledger/kernel';
import { exceedsJsonDepth } from '../http/json-nesting-depth';
import { keepRequestBodyText } from '../http/request-body-digest';
import { type RequestIdentity, requestLogContext } from '../http/request-ids';

/** The two calls served here, by the raw request's method and path; anything else is Fastify's. */
const AGENT_CALL = /^\/api\/v1\/hosts\/([A-Za-z0-9._-]{1,255})\/(heartbeat|report)$/;
/** What Fastify accepts as the JSON parser's media type and the agent sends; any other goes to Fastify, which answers it. */
const JSON_TYPE = /^application\/json(; ?charset=utf-8)?$/i;
/** The Fastify route templates, as request metrics name them. */
export const AGENT_ROUTES = { heartbeat: '/api/v1/hosts/:hostname/heartbeat', report: '/api/v1/hosts/:hostname/report' } as const;

export type AgentCall = keyof typeof AGENT_ROUTES;

/** A call read here: its hostname, parsed body, ids, and the raw request (the key of its body's digest). */
export interface RawAgentCall {
  readonly call: AgentCall;
  readonly hostname: string;
  readonly body: unknown;
  readonly ids: RequestIdentity;
  readonly raw: IncomingMessage;
}

/**
 * What answers a call read here: its answer, or `handOver` — the call
 * goes to Fastify as if it came now (a report that is not the unchanged
 * one). `failure`: a check refused the call or its work failed (so the work
 * may have happened); Fastify's route answers that error and does nothing
 * else, so the answer, its log line and its metric are Fastify's.
 */
export type RawOutcome = { readonly answer: object } | { readonly handOver: true; readonly failure?: unknown };

export interface RawAgentServing {
  /** False while the read models are being prepared, or with tracing or per-request logging on: every call is Fastify's then. */
  ready(): boolean;
  readonly bodyLimit: number;
  readonly jsonMaxDepth: number;
  /** Fastify's own JSON parser (its prototype-poisoning checks), which throws where Fastify answers 400. */
  parseJson(text: string): unknown;
  serve(call: RawAgentCall): Promise<RawOutcome>;
  /** After each answer sent here, as Fastify's onResponse hook counts its own. */
  answered(call: AgentCall, status: number, seconds: number): void;
}

/** What a call handed over to Fastify carries: its body (read here already) and the failure to answer, if any. */
interface Handover {
  readonly body: Buffer;
  readonly failure?: { readonly error: unknown };
}

const handovers = new WeakMap<IncomingMessage, Handover>();

/**
 * The agents' heartbeats and unchanged reports served in Node's own
 * request listener, before Fastify sees them: Fastify's routing, hooks,
 * content-type parsing (an AsyncResource per request) and reply cost more
 * than the calls' own work (docs/agent-protocol.md, "The lean path"). Only
 * the success is answered here; every other outcome is handed to Fastify
 * with the body already read, and its lean route (lean-agent-routes.ts)
 * answers it as before, so the error bodies, codes, logging and metrics
 * of a refused call are Fastify's own. A call is read here only when it is
 * plainly the agent's: POST heartbeat or PUT report on a plain hostname, a
 * JSON body with a Content-Length within the limit, no `Expect`.
 */
export class RawAgentCalls {
  private serving?: RawAgentServing;

  /** Fastify's `serverFactory`: the HTTP server Fastify would make (the same timeouts), with this listener first. */
  readonly serverFactory = (fastifyHandler: RequestListener, options: Record<string, unknown>): Server => {
    const { keepAliveTimeout, requestTimeout, connectionTimeout, maxRequestsPerSocket } = options as unknown as ServerTimeouts;
    const server = createServer((request, response) => this.listen(request, response, fastifyHandler));
    server.keepAliveTimeout = keepAliveTimeout;
    server.requestTimeout = requestTimeout;
    server.setTimeout(connectionTimeout);
    if (maxRequestsPerSocket > 0) server.maxRequestsPerSocket = maxRequestsPerSocket;
    return server;
  };

  /** Once the app is built: until then every call is Fastify's. */
  attach(serving: RawAgentServing): void {
    this.serving = serving;
  }

  private listen(request: IncomingMessage, response: ServerResponse, fastify: RequestListener): void {
    const serving = this.serving;
    const match = serving?.ready() ? AGENT_CALL.exec(request.url ?? '') : null;
    const call = match && callOf(request.method, match[2]);
    const length = Number(request.headers['content-length']);
    if (
      !serving || !match || !call || !(length > 0 && length <= serving.bodyLimit) ||
      !JSON_TYPE.test(request.headers['content-type'] ?? '') || request.headers.expect !== undefined || request.headers['transfer-encoding'] !== undefined
    ) {
      fastify(request, response);
      return;
    }
    const startedAt = performance.now();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      const handOver = (failure?: { error: unknown }) => {
        handovers.set(request, { body, failure });
        fastify(request, response);
      };
      const parsed = parsedBody(serving, request, body);
      if (parsed === undefined) return handOver();
      const ids = { id: uuidV7(), headers: request.headers };
      serving.serve({ call, hostname: match[1], body: parsed.value, ids, raw: request }).then(
        (outcome) => {
          if ('handOver' in outcome) return handOver(outcome.failure === undefined ? undefined : { error: outcome.failure });
          const text = JSON.stringify(outcome.answer);
          response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
          response.end(text);
          serving.answered(call, 200, (performance.now() - startedAt) / 1000);
        },
        (error: unknown) => handOver({ error }),
      );
    });
  }
}

/** Fastify's server options (with its defaults filled in) this factory applies, as Fastify applies them to its own server. */
export interface ServerTimeouts {
  readonly keepAliveTimeout: number;
  readonly requestTimeout: number;
  readonly connectionTimeout: number;
  readonly maxRequestsPerSocket: number;
}

const callOf = (method: string | undefined, path: string): AgentCall | undefined =>
  path === 'heartbeat' ? (method === 'POST' ? 'heartbeat' : undefined) : method === 'PUT' ? 'report' : undefined;

/** The body parsed as Fastify's parser would (depth check first, the text kept for its digest); undefined where Fastify would refuse it. */
function parsedBody(serving: RawAgentServing, request: IncomingMessage, body: Buffer): { value: unknown } | undefined {
  const text = body.toString('utf8');
  if (exceedsJsonDepth(text, serving.jsonMaxDepth)) return undefined;
  try {
    const value = serving.parseJson(text);
    keepRequestBodyText(request, text);
    return { value };
  } catch {
    return undefined;
  }
}

/** Fastify's preParsing hook for the two routes: a call handed over reads the body this listener read. */
export function bodyHandedOver(raw: IncomingMessage, payload: Readable): Readable {
  const handover = handovers.get(raw);
  if (handover === undefined) return payload;
  const stream = new PassThrough();
  stream.end(handover.body);
  return stream;
}

/** The failure a call handed over carries (refused, or its work failed): Fastify's route answers it and does nothing else. */
export function failureHandedOver(raw: IncomingMessage): { readonly error: unknown } | undefined {
  return handovers.get(raw)?.failure;
}

/** The log context of a call served here, as Fastify's preHandler hook enters it. */
export function inCallContext<T>(ids: RequestIdentity, work: () => Promise<T>): Promise<T> {
  return withLogContext(requestLogContext(ids), work);
}
