import { LimiterClosedError, RequestLimiter } from './request-limiter';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
};

describe('RequestLimiter', () => {
  it('keeps at most `limit` calls in flight and starts the waiting ones in arrival order', async () => {
    const limiter = new RequestLimiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const calls = gates.map((gate, index) =>
      limiter.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([limiter.inFlight, limiter.queued]).toEqual([2, 2]);

    gates[1].resolve();
    await calls[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);

    gates[0].resolve();
    gates[2].resolve();
    gates[3].resolve();
    await expect(Promise.all(calls)).resolves.toEqual([0, 1, 2, 3]);
    expect([limiter.inFlight, limiter.queued]).toEqual([0, 0]);
  });

  it('frees the slot when a call fails', async () => {
    const limiter = new RequestLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
    expect(limiter.inFlight).toBe(0);
  });

  it('on close, refuses the calls waiting and any later one, and lets the one in flight finish', async () => {
    const limiter = new RequestLimiter(1);
    let finish = () => undefined as void;
    const inFlight = limiter.run(() => new Promise<string>((resolve) => (finish = () => resolve('sent'))));
    const waiting = limiter.run(async () => 'never sent');
    limiter.close();

    await expect(waiting).rejects.toThrow(LimiterClosedError);
    await expect(limiter.run(async () => 'late')).rejects.toThrow('the fleet is stopping');
    finish();
    await expect(inFlight).resolves.toBe('sent');
    expect([limiter.inFlight, limiter.queued]).toEqual([0, 0]);
  });

  it('refuses a limit below one', () => {
    expect(() => new RequestLimiter(0)).toThrow(RangeError);
  });
});
