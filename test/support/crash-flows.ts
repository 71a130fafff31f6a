import { setTimeout as delay } from 'node:timers/promises';
import { crashCpuShare, throttleProcess } from './cpu-share';
import type { LedgerProcess } from './ledger-process';

/** A call to a ledger over HTTP with a token; a JSON body when given one. */
export type LedgerCall = (method: string, path: string, token: string, body?: unknown) => Promise<Response>;

/** Calls whichever ledger `url()` names now: the crash suites restart it between calls. */
export function ledgerCaller(url: () => string): LedgerCall {
  return (method, path, token, body) =>
    fetch(`${url()}${path}`, {
      method,
      headers: { 'x-auth-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

export interface BindFlow {
  readonly profile: string;
  readonly hostname: string;
  /** The host's device resource provider the binds name. */
  readonly rpUuid: string;
  /** Keep what it bound (else delete it, as Nova does when the instance goes). */
  readonly keep: boolean;
}

/**
 * One of Nova's clients: creates a request of `flow.profile`, binds it to
 * the host's provider, deletes it unless it keeps it, and again, until
 * `stopped()` or a call finds no ledger (killed under it) or is refused.
 * `onBindAnswered` counts the binds the ledger answered, whatever the answer.
 */
export async function runBindFlow(call: LedgerCall, novaToken: string, flow: BindFlow, stopped: () => boolean, onBindAnswered: () => void): Promise<void> {
  while (!stopped()) {
    const created = await call('POST', '/v2/accelerator_requests', novaToken, { device_profile_name: flow.profile }).catch(() => undefined);
    if (!created || created.status !== 201) return;
    const [arq] = ((await created.json()) as { arqs: { uuid: string }[] }).arqs;
    const instance = crypto.randomUUID();
    const ops = [
      { op: 'add', path: '/hostname', value: flow.hostname },
      { op: 'add', path: '/device_rp_uuid', value: flow.rpUuid },
      { op: 'add', path: '/instance_uuid', value: instance },
    ];
    const bound = await call('PATCH', '/v2/accelerator_requests', novaToken, { [arq.uuid]: ops }).catch(() => undefined);
    if (!bound) return;
    onBindAnswered();
    if (!flow.keep) await call('DELETE', `/v2/accelerator_requests?instance=${instance}`, novaToken).catch(() => undefined);
  }
}

/**
 * Starts `clients` flows (each told its number and when to stop), SIGKILLs
 * the ledger `killAfterMs` later, and resolves once every flow has stopped:
 * those in a call when the ledger died stop at its failure. Meanwhile the
 * ledger runs only its `CRASH_CPU_SHARE` of the time.
 */
export async function killDuring(ledger: Pick<LedgerProcess, 'child' | 'kill'>, killAfterMs: number, clients: number, flow: (client: number, stopped: () => boolean) => Promise<void>): Promise<void> {
  let killed = false;
  const release = throttleProcess(ledger.child.pid!, crashCpuShare());
  const running = Array.from({ length: clients }, (_, client) => flow(client, () => killed));
  await delay(killAfterMs);
  killed = true;
  await ledger.kill('SIGKILL');
  await release();
  await Promise.all(running);
}
