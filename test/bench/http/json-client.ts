import { Agent, request } from 'node:http';

/** What came back: the status and the body text (JSON is parsed only when asked for, outside any timing). */
export interface HttpReply {
  readonly status: number;
  readonly text: string;
}

export interface HttpCall {
  readonly method: string;
  readonly path: string;
  /** Sent as X-Auth-Token. */
  readonly token: string;
  /** Serialised as JSON. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A keep-alive HTTP/1.1 client for one ledger, with at most `connections`
 * sockets (1 for sequential latency, the client count for closed loops).
 * It is built on node:http rather than fetch: undici is not a dependency
 * here, so fetch's dispatcher cannot be sized, and node:http costs the
 * load generator less CPU on the machine the ledger shares.
 */
export class JsonClient {
  private readonly agent: Agent;
  private readonly sockets = new WeakSet<object>();
  private opened = 0;

  constructor(
    private readonly url: URL,
    connections: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  /** Connections opened so far: stays at the agent's size once every client has warmed up. */
  get connectionsOpened(): number {
    return this.opened;
  }

  send(call: HttpCall): Promise<HttpReply> {
    const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
    const headers: Record<string, string> = { 'x-auth-token': call.token, ...call.headers };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { agent: this.agent, host: this.url.hostname, port: this.url.port, method: call.method, path: call.path, headers },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          incoming.on('error', reject);
        },
      );
      outgoing.on('socket', (socket) => {
        if (this.sockets.has(socket)) return;
        this.sockets.add(socket);
        this.opened++;
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }

  /** Sends and checks the status: anything else is an error naming the call and the reply. */
  async expect(status: number, call: HttpCall): Promise<HttpReply> {
    const reply = await this.send(call);
    assertStatus(status, call, reply);
    return reply;
  }

  close(): void {
    this.agent.destroy();
  }
}

export function assertStatus(status: number, call: Pick<HttpCall, 'method' | 'path'>, reply: HttpReply): void {
  if (reply.status !== status) {
    throw new Error(`${call.method} ${call.path} answered ${reply.status} (expected ${status}): ${reply.text.slice(0, 500)}`);
  }
}
