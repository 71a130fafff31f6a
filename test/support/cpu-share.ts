import { setTimeout as delay } from 'node:timers/promises';

/** One stop-and-run period: short next to a bind, so the process is slow throughout rather than frozen now and then. */
const PERIOD_MS = 100;

/**
 * The share of the time the crash suites let the ledger run while their
 * clients work (`CRASH_CPU_SHARE`, 0 < share <= 1, default 1: not held
 * back). A share of 0.05 makes a ledger as slow as on a machine twenty
 * times too busy, so a run shows the suite does not depend on the
 * machine's speed (docs/testing.md, "Crash cycles").
 */
export function crashCpuShare(env: NodeJS.ProcessEnv = process.env): number {
  const share = Number(env.CRASH_CPU_SHARE ?? 1);
  if (!(share > 0 && share <= 1)) throw new Error(`CRASH_CPU_SHARE must be a number in (0, 1], not ${env.CRASH_CPU_SHARE}`);
  return share;
}

/**
 * Lets process `pid` run only `share` of the time (SIGSTOP, SIGCONT, every
 * 100 ms) until the returned function is called, which lets it run freely
 * again and resolves once the throttle has stopped. A process that has
 * exited meanwhile (killed by the test) is left alone.
 */
export function throttleProcess(pid: number, share: number): () => Promise<void> {
  if (share >= 1) return async () => undefined;
  let throttled = true;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // It has exited: nothing left to hold back.
    }
  };
  const loop = (async () => {
    while (throttled) {
      signal('SIGSTOP');
      await delay(PERIOD_MS * (1 - share));
      signal('SIGCONT');
      await delay(PERIOD_MS * share);
    }
  })();
  return async () => {
    throttled = false;
    await loop;
  };
}
