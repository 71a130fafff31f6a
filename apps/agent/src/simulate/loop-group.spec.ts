import { LoopGroup } from './loop-group';

/** A loop that runs until its signal aborts. */
const untilAborted = (seen: AbortSignal[]) => (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    seen.push(signal);
    signal.addEventListener('abort', () => resolve(), { once: true });
  });

describe('LoopGroup', () => {
  // Each loop's own signal is what keeps starting and stopping linear: one signal shared by every loop, with a
  // listener each, made each add look through all the others (quadratic at 85,000 hosts). The fleet's cost at
  // scale is a bench record (agents_sim_cpu_ms_per_call, docs/benchmarks.md), not a timed test.
  it('gives each loop its own signal, aborts them all at once, and lets an ended loop leave', async () => {
    const group = new LoopGroup();
    const seen: AbortSignal[] = [];
    const runs = [group.run(untilAborted(seen)), group.run(untilAborted(seen)), group.run(async () => undefined)];
    await runs[2];
    expect([group.size, new Set(seen).size]).toEqual([2, 2]);

    group.abort();
    await Promise.all(runs);
    expect([group.aborted, group.size, seen.every((signal) => signal.aborted)]).toEqual([true, 0, true]);
    // A loop started after the abort does not run.
    const late = jest.fn(async () => undefined);
    await group.run(late);
    expect(late).not.toHaveBeenCalled();
  });
});
