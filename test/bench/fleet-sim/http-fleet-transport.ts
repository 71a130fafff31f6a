import { connect, type Socket } from 'node:net';

/** One call of a simulated host, its body already serialised. */
export interface FleetCall {
  /** Which of the ledger's API replicas (an index into the transport's addresses). */
  readonly replica: number;
  readonly method: 'PUT' | 'POST';
  readonly path: string;
  readonly token: string;
  readonly body: string;
}

/** The answer's status and text; status 0 when the ledger was not reached (the text says why). */
export type FleetAnswer = (status: number, text: string) => void;

/** How a compact fleet sends its calls (a fake one in the specs). */
export interface FleetTransport {
  readonly replicas: number;
  send(call: FleetCall, answer: FleetAnswer): void;
  close(): void;
}

/** The agent's per-call timeout (LedgerClient's 30 s); also how long an idle connection is kept. */
const CALL_TIMEOUT_MS = 30_000;
const HEAD_END = '\r\n\r\n';

/**
 * The compact fleet's HTTP/1.1: keep-alive connections to each replica,
 * one call at a time on each, no more than the fleet's calls in flight.
 * A call is one write of the agent's request line, headers and body; an
 * answer is read for its status and body (Content-Length, or chunked).
 * node:http's client costs about twice the CPU per call (its request
 * objects, listeners and header checks, a writev per call), which at 8,000
 * calls/s is most of a core; undici is not a dependency here.
 */
export class HttpFleetTransport implements FleetTransport {
  private readonly targets: readonly Target[];

  constructor(ledgerUrls: readonly string[], bootId: string) {
    this.targets = ledgerUrls.map((address) => {
      const url = new URL(address);
      return { host: url.hostname, port: Number(url.port || 80), hostHeader: url.host, bootId, idle: [], open: new Set() };
    });
  }

  get replicas(): number {
    return this.targets.length;
  }

  send(call: FleetCall, answer: FleetAnswer): void {
    const target = this.targets[call.replica];
    const request =
      `${call.method} ${call.path} HTTP/1.1\r\nhost: ${target.hostHeader}\r\nx-auth-token: ${call.token}\r\nx-agent-boot: ${target.bootId}\r\n` +
      `accept: application/json\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(call.body)}\r\n\r\n${call.body}`;
    this.write(target, request, answer);
  }

  private write(target: Target, request: string, answer: FleetAnswer): void {
    const idle = target.idle.pop();
    const connection = idle ?? this.open(target);
    connection.answer = answer;
    connection.request = request;
    connection.reused = idle !== undefined;
    connection.socket.write(request);
  }

  close(): void {
    for (const target of this.targets) for (const connection of target.open) connection.socket.destroy();
  }

  private open(target: Target): Connection {
    const socket = connect({ host: target.host, port: target.port, noDelay: true });
    const connection: Connection = { socket, answer: undefined, request: '', reused: false, received: '' };
    target.open.add(connection);
    socket.setEncoding('latin1');
    socket.setTimeout(CALL_TIMEOUT_MS);
    socket.on('data', (chunk: string) => {
      connection.received += chunk;
      const reply = parseReply(connection.received);
      if (reply === undefined || connection.answer === undefined) return;
      const answer = connection.answer;
      connection.answer = undefined;
      connection.request = '';
      connection.received = '';
      if (reply.close) {
        target.open.delete(connection);
        socket.destroy();
      } else {
        target.idle.push(connection);
      }
      answer(reply.status, reply.text);
    });
    const fail = (reason: string) => {
      target.open.delete(connection);
      const idleAt = target.idle.indexOf(connection);
      if (idleAt >= 0) target.idle.splice(idleAt, 1);
      const { answer, request, reused } = connection;
      connection.answer = undefined;
      socket.destroy();
      if (answer === undefined) return;
      // A kept-alive connection the ledger closed while idle fails the next call before any answer: the call goes again on a new one.
      if (reused && connection.received === '') this.write(target, request, answer);
      else answer(0, reason);
    };
    socket.on('timeout', () => fail(`no answer within ${CALL_TIMEOUT_MS / 1000} s`));
    socket.on('error', (error) => fail(error.message));
    socket.on('close', () => fail('the ledger closed the connection'));
    return connection;
  }
}

interface Target {
  readonly host: string;
  readonly port: number;
  readonly hostHeader: string;
  readonly bootId: string;
  /** Connections with no call on them. */
  readonly idle: Connection[];
  readonly open: Set<Connection>;
}

interface Connection {
  readonly socket: Socket;
  /** The call on it, until answered, and its bytes (to send again if the connection was closed under it). */
  answer: FleetAnswer | undefined;
  request: string;
  /** Taken from the idle ones for this call, rather than opened for it. */
  reused: boolean;
  /** The answer so far, as latin1 (bytes as characters: lengths are byte counts). */
  received: string;
}

/** A whole answer in `received`: its status, its body (UTF-8) and whether the ledger closes the connection after it; undefined while incomplete. */
export function parseReply(received: string): { status: number; text: string; close: boolean } | undefined {
  const headEnd = received.indexOf(HEAD_END);
  if (headEnd < 0) return undefined;
  const head = received.slice(0, headEnd).toLowerCase();
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection:\s*close/.test(head);
  const bodyStart = headEnd + HEAD_END.length;
  const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    if (received.length < end) return undefined;
    return { status, text: utf8(received.slice(bodyStart, end)), close };
  }
  if (/\r\ntransfer-encoding:\s*chunked/.test(head)) {
    const body = dechunk(received, bodyStart);
    return body === undefined ? undefined : { status, text: utf8(body), close };
  }
  // No length and not chunked: a body-less answer (204, 304).
  return { status, text: '', close };
}

/** A chunked body from `at`, or undefined while its last chunk has not arrived. */
function dechunk(received: string, at: number): string | undefined {
  let body = '';
  for (;;) {
    const lineEnd = received.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(received.slice(at, lineEnd), 16);
    if (size === 0) return received.indexOf('\r\n', lineEnd + 2) < 0 ? undefined : body;
    const end = lineEnd + 2 + size;
    if (received.length < end + 2) return undefined;
    body += received.slice(lineEnd + 2, end);
    at = end + 2;
  }
}

const utf8 = (latin1: string): string => Buffer.from(latin1, 'latin1').toString('utf8');
