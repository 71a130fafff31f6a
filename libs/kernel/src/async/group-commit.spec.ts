import { type CommitOutcome, GroupCommit } from './group-commit';

/** A committer whose batches the test completes by hand. */
function manualCommitter() {
  const calls: { batch: readonly number[]; finish(outcomes?: readonly CommitOutcome<number>[]): void; fail(error: Error): void }[] = [];
  let called: () => void = () => undefined;
  const commit = (batch: readonly number[]): Promise<readonly CommitOutcome<number>[]> =>
    new Promise((resolve, reject) => {
      calls.push({ batch, finish: (outcomes) => resolve(outcomes ?? batch.map((n) => ({ result: n * 10 }))), fail: reject });
      called();
    });
  const nextCall = (count: number): Promise<void> =>
    calls.length >= count ? Promise.resolve() : new Promise((resolve) => (called = () => calls.length >= count && resolve()));
  return { calls, commit, nextCall };
}

describe('GroupCommit', () => {
  it('commits every request made in one turn of the event loop as one batch', async () => {
    const committer = manualCommitter();
    const group = new GroupCommit(committer.commit);
    const results = Promise.all([1, 2, 3].map((n) => group.submit(n)));
    await committer.nextCall(1);
    committer.calls[0].finish();
    expect(await results).toEqual([10, 20, 30]);
    expect(committer.calls.map((call) => call.batch)).toEqual([[1, 2, 3]]);
    expect(group.stats()).toEqual({ batches: 1, requests: 3 });
  });

  it('tells its observer the size of each batch once it settled, failed ones too', async () => {
    const committer = manualCommitter();
    const observed: number[] = [];
    const group = new GroupCommit(committer.commit, 1000, (requests, seconds) => {
      expect(seconds).toBeGreaterThanOrEqual(0);
      observed.push(requests);
    });
    const first = Promise.all([group.submit(1), group.submit(2)]);
    await committer.nextCall(1);
    expect(observed).toEqual([]);
    const failing = group.submit(3);
    committer.calls[0].finish();
    await first;
    await committer.nextCall(2);
    committer.calls[1].fail(new Error('disk full'));
    await expect(failing).rejects.toThrow('disk full');
    expect(observed).toEqual([2, 1]);
  });

  it('gathers requests made while a batch is in flight into the next batch', async () => {
    const committer = manualCommitter();
    const group = new GroupCommit(committer.commit);
    const first = group.submit(1);
    await committer.nextCall(1);
    const later = Promise.all([group.submit(2), group.submit(3)]);
    committer.calls[0].finish();
    await committer.nextCall(2);
    committer.calls[1].finish();
    expect([await first, ...(await later)]).toEqual([10, 20, 30]);
    expect(committer.calls.map((call) => call.batch)).toEqual([[1], [2, 3]]);
  });

  it('settles each request with its own outcome, and all of them when the batch fails', async () => {
    const committer = manualCommitter();
    const group = new GroupCommit(committer.commit);
    const mixed = [group.submit(1), group.submit(2)];
    await committer.nextCall(1);
    committer.calls[0].finish([{ result: 10 }, { error: new Error('conflict') }]);
    await expect(mixed[0]).resolves.toBe(10);
    await expect(mixed[1]).rejects.toThrow('conflict');

    const failed = [group.submit(3), group.submit(4)];
    await committer.nextCall(2);
    committer.calls[1].fail(new Error('disk full'));
    await expect(Promise.allSettled(failed)).resolves.toEqual([
      { status: 'rejected', reason: new Error('disk full') },
      { status: 'rejected', reason: new Error('disk full') },
    ]);
  });

  it('splits a burst into batches of at most maxBatch', async () => {
    const group = new GroupCommit((batch: readonly number[]) => batch.map((n) => ({ result: n })), 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => group.submit(n)))).toEqual([1, 2, 3, 4, 5]);
    expect(group.stats()).toEqual({ batches: 3, requests: 5 });
  });

  it('drains: resolves once everything submitted is settled', async () => {
    const group = new GroupCommit((batch: readonly number[]) => batch.map((n) => ({ result: n })));
    const pending = group.submit(7);
    await group.drain();
    await expect(Promise.race([pending, Promise.resolve('unsettled')])).resolves.toBe(7);
  });
});
