import { randomUUID } from 'node:crypto';
import type { ReportedDevice } from '@ledger/inventory';
import { fetchFailureReason, isFetchTimeout } from '@ledger/kernel';
import { LedgerAddresses } from './ledger-addresses';
import { isLedgerCallError, LedgerCallError } from './ledger-call.error';
import type { Heartbeat, HeartbeatAnswer, JobOffer, JobResult, ReportAnswer } from './protocol';

/** How long an ordinary call may take before the agent counts the ledger unreachable. */
const CALL_TIMEOUT_MS = 30_000;
/** Slack on top of a long poll's wait before the agent stops waiting for the answer. */
const LONG_POLL_SLACK_MS = 15_000;

export interface LedgerClientOptions {
  /** The ledger's API replicas (the agent's LEDGER_URL list); one suffices. */
  readonly baseUrls: readonly string[];
  readonly token: string;
  readonly hostname: string;
  /** Per-call timeout (30 s). */
  readonly timeoutMs?: number;
  /**
   * This run of the agent (a fresh uuid per start), sent as `X-Agent-Boot`:
   * a job dispatched to an earlier boot and never finished is offered again
   * to the next one.
   */
  readonly bootId?: string;
  /** After a failover, when the preferred address is tried first again (RETURN_TO_PREFERRED_MS, 5 min). */
  readonly returnAfterMs?: number;
  /** The clock that times the return (Date.now). */
  readonly now?: () => number;
  /** A call went to another address than the one in use, which could not serve it (the agent logs it: a replica down shows in its log). */
  readonly onFailover?: (failover: { readonly route: string; readonly from: string; readonly to: string; readonly reason: string }) => void;
}

/** Answers that say "this replica cannot serve now, another may": a proxy's bad gateway or timeout, a replica closing or not ready. */
const FAIL_OVER_STATUSES = new Set([502, 503, 504]);

interface CallOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Called after each attempt that failed, whatever the failure, before the next address is tried. */
  readonly onAttemptFailed?: () => void;
}

/**
 * The agent's side of docs/agent-protocol.md, on Node's fetch (whose
 * default dispatcher keeps connections alive between calls). With several
 * ledger addresses a call that finds its replica unreachable, or answered
 * 502/503/504, is made again at once on the next one (LedgerAddresses says
 * which); every call is safe to repeat on another replica (docs/agent-protocol.md,
 * "Several ledger addresses"). Every failure is a LedgerCallError saying
 * whether the ledger was unreachable, refused the request (4xx) or failed
 * (5xx); callers decide what to keep and retry.
 */
export class LedgerClient {
  private readonly hostPath: string;
  private readonly timeoutMs: number;
  private readonly addresses: LedgerAddresses;
  private boot: string;

  constructor(private readonly options: LedgerClientOptions) {
    this.hostPath = `/api/v1/hosts/${encodeURIComponent(options.hostname)}`;
    this.timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
    this.boot = options.bootId ?? randomUUID();
    this.addresses = new LedgerAddresses(options.baseUrls, options.hostname, options.returnAfterMs, options.now);
  }

  /** The boot the calls name now: the one drawn at start, or a fresh one after a failed poll. */
  get bootId(): string {
    return this.boot;
  }

  /** The ledger addresses in the order the next call tries them (the one in use first), for what the agent fetches from its ledger besides the protocol's calls. */
  addressesInTurn(): readonly string[] {
    return this.addresses.inTurn();
  }

  report(devices: readonly ReportedDevice[]): Promise<ReportAnswer> {
    return this.call('PUT', `${this.hostPath}/report`, { devices });
  }

  heartbeat(heartbeat: Heartbeat): Promise<HeartbeatAnswer> {
    return this.call('POST', `${this.hostPath}/heartbeat`, heartbeat);
  }

  /**
   * Long poll: the jobs waiting for this host (each now dispatched to it),
   * or none after `waitSeconds`. A poll that fails draws a new boot: the
   * ledger may have recorded jobs dispatched to this boot before its answer
   * was lost (it crashed, or failed on a later job of the batch), and it
   * offers a dispatched job again only to another boot — without a new one
   * such a job would wait for its deadline (ten minutes for a program, with
   * the bind that asked for it). Safe because the job loop polls only once
   * it has run every job of the last answer, and skips a job offered again
   * whose result it saved (docs/agent-protocol.md, Redelivery). The new boot
   * is drawn after each failed attempt, so the poll that fails over to
   * another replica already names it and gets those jobs at once.
   */
  async nextJobs(waitSeconds: number, signal?: AbortSignal): Promise<readonly JobOffer[]> {
    const answer = await this.call<{ jobs?: JobOffer[] }>('GET', `${this.hostPath}/jobs/next?waitSeconds=${waitSeconds}`, undefined, {
      timeoutMs: waitSeconds * 1000 + LONG_POLL_SLACK_MS,
      signal,
      onAttemptFailed: () => (this.boot = randomUUID()),
    });
    return answer?.jobs ?? [];
  }

  async postResult(jobId: string, result: JobResult): Promise<void> {
    await this.call('POST', `/api/v1/jobs/${encodeURIComponent(jobId)}/result`, result);
  }

  /** `path` on the address in use; on the next one at once while a replica is unreachable or answers 502/503/504; each address once. */
  private async call<T>(method: string, path: string, body: unknown | undefined, options: CallOptions = {}): Promise<T> {
    const route = `${method} ${path.split('?')[0]}`;
    const failures: { url: string; error: LedgerCallError }[] = [];
    // Serialised once: a call that fails over sends the same bytes to the next address.
    const json = body === undefined ? undefined : JSON.stringify(body);
    for (const url of this.addresses.inTurn()) {
      try {
        const answer = await this.attempt<T>(url, route, method, path, json, options);
        this.answered(url, route, failures);
        return answer;
      } catch (error) {
        if (!isLedgerCallError(error)) throw error;
        options.onAttemptFailed?.();
        if (options.signal?.aborted) throw error;
        if (!replicaCannotServe(error)) {
          this.answered(url, route, failures);
          throw error;
        }
        failures.push({ url, error });
      }
    }
    throw everyAddressFailed(route, failures);
  }

  private answered(url: string, route: string, failures: readonly { url: string; error: LedgerCallError }[]): void {
    this.addresses.answered(url);
    if (failures.length > 0) this.options.onFailover?.({ route, from: failures[0].url, to: url, reason: failures.map(({ error }) => error.reason).join('; ') });
  }

  private async attempt<T>(baseUrl: string, route: string, method: string, path: string, json: string | undefined, options: CallOptions): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const headers: Record<string, string> = { 'x-auth-token': this.options.token, 'x-agent-boot': this.boot, accept: 'application/json' };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const { signal, dispose } = withTimeout(timeoutMs, options.signal);
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: json,
        signal,
      });
      text = await response.text();
    } catch (error) {
      throw unreachable(route, error, timeoutMs, options.signal);
    } finally {
      dispose();
    }
    const parsed = parseJson(text);
    if (response.ok) return parsed as T;
    const problem = parsed as { code?: unknown; detail?: unknown } | undefined;
    const code = typeof problem?.code === 'string' ? problem.code : `HTTP.${response.status}`;
    const detail = typeof problem?.detail === 'string' ? problem.detail : text.slice(0, 200) || 'no details';
    throw new LedgerCallError(response.status >= 500 ? 'server' : 'refused', route, `${code}: ${detail}`, response.status, code);
  }
}

/** Worth trying on another replica: this one is out of reach or says it cannot serve; any other answer is the ledger's. */
const replicaCannotServe = (error: LedgerCallError): boolean => error.failure === 'unreachable' || FAIL_OVER_STATUSES.has(error.status);

/** One address: its own failure. Several: each address with its failure, as the last one tried failed (its class, status and code). */
function everyAddressFailed(route: string, failures: readonly { url: string; error: LedgerCallError }[]): LedgerCallError {
  const last = failures[failures.length - 1].error;
  if (failures.length === 1) return last;
  const each = failures.map(({ url, error }) => `${url}: ${error.reason}`).join('; ');
  return new LedgerCallError(last.failure, route, `no ledger address answered (${each})`, last.status, last.code);
}

/** A signal that fires after `timeoutMs` or when `outer` does (AbortSignal.any is newer than Node 20.0). */
function withTimeout(timeoutMs: number, outer?: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
}

function unreachable(route: string, error: unknown, timeoutMs: number, outer?: AbortSignal): LedgerCallError {
  if (outer?.aborted) return new LedgerCallError('unreachable', route, 'cancelled: the agent is stopping');
  if (isFetchTimeout(error)) return new LedgerCallError('unreachable', route, `no answer within ${timeoutMs / 1000} s`);
  return new LedgerCallError('unreachable', route, `cannot reach the ledger (${fetchFailureReason(error)})`);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
