import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { mergeCounts, type PeriodCounts, summarizeCounts } from './fleet-stats';
import type { FleetSlice } from './simulated-fleet';
import { progressLine } from './progress-line';

/** Set on each worker `npm run simulate -- --workers N` forks: `k/N`, the slice it runs. */
export const WORKER_ENV = 'LEDGER_SIMULATE_WORKER';

/** What a worker tells the parent, over the IPC channel. */
export type WorkerMessage =
  /** Its period since the last one (every --progress seconds), with its hosts registered and calls waiting for a slot. */
  | { readonly kind: 'period'; readonly counts: PeriodCounts; readonly registered: number; readonly queued: number }
  /** Its every host is registered. */
  | { readonly kind: 'registered'; readonly registered: number }
  /** Everything since its start, sent once its fleet has stopped. */
  | { readonly kind: 'totals'; readonly counts: PeriodCounts };

/** The slice WORKER_ENV names, or undefined in a process that is not a worker. A malformed value throws. */
export function workerSlice(env: NodeJS.ProcessEnv): FleetSlice | undefined {
  const value = env[WORKER_ENV];
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const [worker, workers] = match ? [Number(match[1]), Number(match[2])] : [Number.NaN, Number.NaN];
  if (!(worker >= 0 && worker < workers)) throw new Error(`${WORKER_ENV} must be k/N with 0 ≤ k < N, not ${JSON.stringify(value)}`);
  return { worker, workers };
}

/** A worker's share of the fleet's calls in flight: the whole bound divided out, at least one each. */
export const workerConcurrency = (concurrency: number, workers: number): number => Math.max(1, Math.ceil(concurrency / workers));

/**
 * The parent's view of its workers: each period's counts merged into one
 * progress line, the hosts registered and calls queued summed over each
 * worker's latest word, and the totals merged for the summary.
 */
export class WorkerProgress {
  private pending: PeriodCounts[] = [];
  private readonly registered = new Map<number, number>();
  private readonly queued = new Map<number, number>();
  private readonly totals = new Map<number, PeriodCounts>();
  private readonly done = new Set<number>();

  constructor(
    private readonly hosts: number,
    private readonly workers: number,
  ) {}

  /** One message of worker `worker`; true when it is the last worker's `registered`. */
  add(worker: number, message: WorkerMessage): boolean {
    switch (message.kind) {
      case 'period':
        this.pending.push(message.counts);
        this.registered.set(worker, message.registered);
        this.queued.set(worker, message.queued);
        return false;
      case 'registered':
        this.registered.set(worker, message.registered);
        this.done.add(worker);
        return this.done.size === this.workers;
      case 'totals':
        this.totals.set(worker, message.counts);
        return false;
    }
  }

  /** Hosts registered across the workers, as each last said. */
  get hostsRegistered(): number {
    return sum(this.registered.values());
  }

  /** The periods received since the last line, as one line; undefined when none came. */
  takeLine(): string | undefined {
    if (this.pending.length === 0) return undefined;
    const merged = mergeCounts(this.pending);
    this.pending = [];
    return progressLine(summarizeCounts(merged), { hosts: this.hosts, registered: this.hostsRegistered, queued: sum(this.queued.values()) });
  }

  /** The workers' totals merged (those that sent theirs), and how many did. */
  summary(): { readonly counts: PeriodCounts; readonly workersReporting: number } {
    return { counts: mergeCounts([...this.totals.values()]), workersReporting: this.totals.size };
  }
}

const sum = (values: Iterable<number>): number => [...values].reduce((total, value) => total + value, 0);

/**
 * Forks `workers` copies of this script (the same arguments, the same Node
 * flags), worker k with WORKER_ENV=k/N and an IPC channel; their stderr is
 * this process's. `onMessage` gets each worker's messages.
 */
export function forkWorkers(workers: number, onMessage: (worker: number, message: WorkerMessage) => void): ChildProcess[] {
  return Array.from({ length: workers }, (_, worker) => {
    const child = fork(process.argv[1], process.argv.slice(2), {
      env: { ...process.env, [WORKER_ENV]: `${worker}/${workers}` },
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message: WorkerMessage) => onMessage(worker, message));
    return child;
  });
}

/** Resolves to each worker's exit code (a worker killed by a signal counts 1) once all have exited. */
export function workersExited(children: readonly ChildProcess[]): Promise<number[]> {
  return Promise.all(
    children.map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
      return child.exitCode ?? 1;
    }),
  );
}
