import { execFileSync } from 'node:child_process';

/**
 * CPU nanoseconds per promise that Node's promise hooks add, as the first
 * `AsyncLocalStorage.run` of a process turns them on (Node 20): a loop of
 * async functions (4 promises each) timed before and after, in a fresh
 * process so nothing else has turned them on. Best of `tries`.
 */
export function promiseHookCostNs(tries = 3): { withoutNs: number; withNs: number } {
  const script = `
    const { AsyncLocalStorage } = require('node:async_hooks');
    const N = 300000;
    async function chain() { await null; await null; return 1; }
    async function nsPerPromise() {
      for (let i = 0; i < N; i++) await chain();
      const start = process.cpuUsage();
      for (let i = 0; i < N; i++) await chain();
      const used = process.cpuUsage(start);
      return ((used.user + used.system) * 1000) / N / 4;
    }
    (async () => {
      const withoutNs = await nsPerPromise();
      const withNs = await new AsyncLocalStorage().run({}, nsPerPromise);
      process.stdout.write(JSON.stringify({ withoutNs, withNs }));
    })();`;
  const runs = Array.from({ length: tries }, () => JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { withoutNs: number; withNs: number });
  return { withoutNs: Math.min(...runs.map((run) => run.withoutNs)), withNs: Math.min(...runs.map((run) => run.withNs)) };
}
