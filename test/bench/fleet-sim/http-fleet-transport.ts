import { Agent, request } from 'node:http';

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

/** The agent's per-call timeout (LedgerClient's 30 s). */
const CALL_TIMEOUT_MS = 30_000;

/**
 * The compact fleet's HTTP/1.1 over node:http: one keep-alive agent per
 * replica with at most `sockets` connections each (the fleet bounds its
 * calls in flight below that), the agent's headers, callbacks rather than
 * promises. undici is not a dependency here, so fetch's dispatcher cannot
 * be sized; node:http also costs less CPU per call.
 */
export class HttpFleetTransport implements FleetTransport {
  private readonly targets: readonly { readonly agent: Agent; readonly hostname: string; readonly port: string }[];
  private readonly bootId: string;

  constructor(ledgerUrls: readonly string[], sockets: number, bootId: string) {
    this.bootId = bootId;
    this.targets = ledgerUrls.map((address) => {
      const url = new URL(address);
      return { agent: new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets }), hostname: url.hostname, port: url.port };
    });
  }

  get replicas(): number {
    return this.targets.length;
  }

  send(call: FleetCall, answer: FleetAnswer): void {
    const target = this.targets[call.replica];
    let answered = false;
    const once = (status: number, text: string) => {
      if (answered) return;
      answered = true;
      answer(status, text);
    };
    const outgoing = request(
      {
        agent: target.agent,
        host: target.hostname,
        port: target.port,
        method: call.method,
        path: call.path,
        timeout: CALL_TIMEOUT_MS,
        headers: {
          'x-auth-token': call.token,
          'x-agent-boot': this.bootId,
          accept: 'application/json',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(call.body),
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => once(incoming.statusCode ?? 0, text));
        incoming.on('error', (error) => once(0, error.message));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${CALL_TIMEOUT_MS / 1000} s`)));
    outgoing.on('error', (error) => once(0, error.message));
    outgoing.end(call.body);
  }

  close(): void {
    for (const target of this.targets) target.agent.destroy();
  }
}
