import { LoopGroup } from './loop-group';

/** A loop that runs until its signal aborts. */
const untilAborted = (seen: AbortSignal[]) => (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    seen.push(signal);
    signal.addEventListener('abort', () => resolve(), { once: true });
  });

describe('LoopGroup', () => {
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

  it('starts and stops loops in time linear in their number (one shared signal with a listener each was quadratic)', async () => {
    const timed = async (loops: number) => {
      const group = new LoopGroup();
      const started = performance.now();
      const runs = Array.from({ length: loops }, () => group.run(untilAborted([])));
      group.abort();
      await Promise.all(runs);
      return performance.now() - started;
    };
    // The best of three, against a shared machine's noise: four times the loops takes about four times as long, not sixteen.
    const best = async (loops: number) => Math.min(await timed(loops), await timed(loops), await timed(loops));
    const [small, large] = [await best(10_000), await best(40_000)];
    expect(large / small).toBeLessThan(10);
  });
});
