import { WaitingJobsSnapshot } from './waiting-jobs-snapshot';

describe('WaitingJobsSnapshot', () => {
  it('answers from one read for its freshness, shared by the calls that wait for it, then reads again', async () => {
    const clock = { now: 0 };
    const reads: Array<Map<string, number>> = [new Map([['compute-1', 2]]), new Map()];
    let calls = 0;
    const snapshot = new WaitingJobsSnapshot(async () => reads[calls++], 1000, () => clock.now);
    expect(await Promise.all([snapshot.waiting('compute-1'), snapshot.waiting('compute-2')])).toEqual([2, 0]);
    clock.now = 999;
    expect(await snapshot.waiting('compute-1')).toBe(2);
    expect(calls).toBe(1);
    clock.now = 1000;
    expect(await snapshot.waiting('compute-1')).toBe(0);
    expect(calls).toBe(2);
  });

  it('keeps no failed read: the next call reads again', async () => {
    let fail = true;
    const snapshot = new WaitingJobsSnapshot(async () => {
      if (fail) throw new Error('database away');
      return new Map([['compute-1', 1]]);
    }, 1000, () => 0);
    await expect(snapshot.waiting('compute-1')).rejects.toThrow('database away');
    fail = false;
    expect(await snapshot.waiting('compute-1')).toBe(1);
  });
});
