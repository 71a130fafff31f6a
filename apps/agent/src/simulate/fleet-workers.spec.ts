import { FleetStats } from './fleet-stats';
import { WORKER_ENV, WorkerProgress, workerConcurrency, workerSlice } from './fleet-workers';
import { sliceIndices } from './simulated-fleet';

describe('simulate --workers', () => {
  it('gives each worker an interleaved slice, together every host once', () => {
    expect(sliceIndices(10, { worker: 0, workers: 3 })).toEqual([0, 3, 6, 9]);
    expect(sliceIndices(10, { worker: 2, workers: 3 })).toEqual([2, 5, 8]);
    const all = [0, 1, 2, 3].flatMap((worker) => sliceIndices(1001, { worker, workers: 4 }));
    expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: 1001 }, (_, index) => index));
    // More workers than hosts: the extra ones run none.
    expect(sliceIndices(2, { worker: 3, workers: 4 })).toEqual([]);
    expect(sliceIndices(3)).toEqual([0, 1, 2]);
    expect(() => sliceIndices(10, { worker: 3, workers: 3 })).toThrow('no worker 3 of 3');
  });

  it('reads the slice from the environment, and refuses a malformed one', () => {
    expect(workerSlice({})).toBeUndefined();
    expect(workerSlice({ [WORKER_ENV]: '1/4' })).toEqual({ worker: 1, workers: 4 });
    for (const bad of ['4/4', '1', 'a/b', '-1/2', '']) expect(() => workerSlice({ [WORKER_ENV]: bad })).toThrow(WORKER_ENV);
  });

  it('shares the calls in flight out, at least one each', () => {
    expect(workerConcurrency(32, 2)).toBe(16);
    expect(workerConcurrency(33, 2)).toBe(17);
    expect(workerConcurrency(2, 8)).toBe(1);
  });

  it('merges the workers’ periods into one progress line, and their totals into the summary', () => {
    let now = 0;
    const [a, b] = [new FleetStats(() => now), new FleetStats(() => now)];
    // Worker 0: latencies 1 … 50 ms; worker 1: 51 … 100 ms, and errors.
    for (let latency = 1; latency <= 50; latency++) a.succeeded('heartbeat', latency);
    for (let latency = 51; latency <= 98; latency++) b.succeeded('report', latency, latency === 51 ? 1 : 0);
    b.failed('HTTP.503', 99);
    b.failed('HTTP.503', 100);
    now = 2000;
    const progress = new WorkerProgress(200, 2);
    expect(progress.takeLine()).toBeUndefined();
    progress.add(0, { kind: 'period', counts: a.takePeriodCounts(), registered: 100, queued: 1 });
    progress.add(1, { kind: 'period', counts: b.takePeriodCounts(), registered: 60, queued: 2 });
    // The percentiles are the pooled fleet's, not an average of the workers'.
    expect(progress.takeLine()).toBe(
      '160/200 hosts registered; reports 24.0/s (0.5/s appended), heartbeats 25.0/s, errors 2 (HTTP.503 ×2), latency p50 50.0 ms p99 99.0 ms, queued 3',
    );
    expect(progress.takeLine()).toBeUndefined();

    expect(progress.add(0, { kind: 'registered', registered: 100 })).toBe(false);
    expect(progress.add(1, { kind: 'registered', registered: 100 })).toBe(true);
    expect(progress.hostsRegistered).toBe(200);

    now = 5000;
    progress.add(0, { kind: 'totals', counts: a.totalCounts() });
    expect(progress.summary()).toMatchObject({ workersReporting: 1, counts: { heartbeats: 50, reports: 0 } });
    progress.add(1, { kind: 'totals', counts: b.totalCounts() });
    expect(progress.summary()).toMatchObject({ workersReporting: 2, counts: { seconds: 5, heartbeats: 50, reports: 48, changedReports: 1, errors: 2, errorCodes: { 'HTTP.503': 2 } } });
  });
});
