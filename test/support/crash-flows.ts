import { setTimeout as delay } from 'node:timers/promises';
import { eventually } from '@ledger/processing/testing';
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
 * When a crash suite kills its ledger: after the work the cycle needs has
 * happened, however slow the machine (`afterBinds` binds answered in the
 * cycle, and `reached()` when given: a step the ledger must show first),
 * then `extraMs` later still, so that kills land at different steps of the
 * flows in flight.
 */
export interface KillMoment {
  readonly afterBinds: number;
  readonly reached?: () => Promise<boolean>;
  readonly extraMs: number;
}

/** Draws a kill moment from a suite's seeded `random`: after 1 to `maxBinds` binds answered, then 0 to `maxExtraMs` more. */
export function drawKillMoment(random: () => number, maxBinds: number, maxExtraMs: number): KillMoment {
  return { afterBinds: 1 + Math.floor(random() * maxBinds), extraMs: Math.floor(random() * maxExtraMs) };
}

/** A client's flow: `stopped()` tells it the ledger is being killed; it calls `bindAnswered()` for each bind the ledger answers. */
export type ClientFlow = (client: number, stopped: () => boolean, bindAnswered: () => void) => Promise<void>;

/**
 * How long the work a kill waits for may take (divided by `CRASH_CPU_SHARE`):
 * a safety net for a ledger that stopped answering, not an expectation (a
 * bind takes well under a second on an idle machine).
 */
const WORK_TIMEOUT_MS = 120_000;

/**
 * Starts `clients` flows (each told its number, when to stop and where to
 * count the binds answered), SIGKILLs the ledger at `moment`, and resolves
 * with the binds answered once every flow has stopped: those in a call when
 * the ledger died stop at its failure. Meanwhile the ledger runs only its
 * `CRASH_CPU_SHARE` of the time. Fails, once the ledger is killed, when
 * every flow stopped or the safety net ran out before the moment came.
 */
export async function killDuring(ledger: Pick<LedgerProcess, 'child' | 'kill'>, moment: KillMoment, clients: number, flow: ClientFlow): Promise<number> {
  let killed = false;
  let answered = 0;
  let flowsEnded = false;
  const share = crashCpuShare();
  const timeoutMs = WORK_TIMEOUT_MS / share;
  const release = throttleProcess(ledger.child.pid!, share);
  const running = Promise.all(Array.from({ length: clients }, (_, client) => flow(client, () => killed, () => answered++)));
  running.then(
    () => (flowsEnded = true),
    () => (flowsEnded = true),
  );
  const workDone = async () => answered >= moment.afterBinds && ((await moment.reached?.()) ?? true);
  const due = await eventually(async () => flowsEnded || (await workDone()), timeoutMs)
    .then(workDone)
    .catch(() => false);
  if (due) await delay(moment.extraMs);
  killed = true;
  await ledger.kill('SIGKILL');
  await release();
  await running;
  if (!due) {
    const end = flowsEnded ? 'every client stopped' : `${timeoutMs} ms passed`;
    throw new Error(`the kill waited for ${moment.afterBinds} bind(s) answered${moment.reached ? ' and the step it needs' : ''}; ${answered} were answered before ${end}`);
  }
  return answered;
}

/** Between a cleaner's tries while its ledger is down or restarting. */
const CLEANER_RETRY_MS = 100;

/**
 * The agents of `hosts` as far as clean jobs go, for a crash suite whose
 * hosts are reported by hand: each long-polls its host's jobs and completes
 * every clean job with the steps a driver reports, until `stopped()`. A
 * call that finds no ledger (killed, restarting) is tried again on
 * whichever `url()` names now, under a new boot, as the agent does, so a
 * job dispatched to the killed ledger is offered again
 * (docs/agent-protocol.md, Redelivery). Resolves with the results the
 * ledger took.
 */
export async function runCleaners(url: () => string, hosts: readonly { hostname: string; token: string }[], stopped: () => boolean): Promise<number> {
  let taken = 0;
  const clean = async ({ hostname, token }: { hostname: string; token: string }) => {
    let boot = crypto.randomUUID();
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${url()}${path}`, {
        method,
        headers: { 'x-auth-token': token, 'x-agent-boot': boot, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    while (!stopped()) {
      const poll = await send('GET', `/api/v1/hosts/${hostname}/jobs/next?waitSeconds=1`).catch(() => undefined);
      if (poll?.status !== 200) {
        boot = crypto.randomUUID();
        await delay(CLEANER_RETRY_MS);
        continue;
      }
      for (const job of ((await poll.json()) as { jobs: { jobId: string; kind: string }[] }).jobs) {
        const result = { outcome: 'completed', evidence: { ran: [{ step: 'function-level reset', result: 'reset' }] } };
        for (;;) {
          const answer = await send('POST', `/api/v1/jobs/${job.jobId}/result`, result).catch(() => undefined);
          // 409: the ledger has this job's result already; stop sending it.
          if (answer?.status === 200) taken++;
          if (answer?.status === 200 || answer?.status === 409 || stopped()) break;
          boot = crypto.randomUUID();
          await delay(CLEANER_RETRY_MS);
        }
      }
    }
  };
  await Promise.all(hosts.map(clean));
  return taken;
}
