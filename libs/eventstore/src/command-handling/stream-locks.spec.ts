import { StreamLocks } from './stream-locks';

describe('StreamLocks', () => {
  it('runs work on one stream strictly one after another, in arrival order', async () => {
    const locks = new StreamLocks();
    const log: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const task = (name: string) =>
      locks.run('quota-p1', async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        log.push(`start ${name}`);
        await new Promise((resolve) => setImmediate(resolve));
        log.push(`end ${name}`);
        running--;
        return name;
      });
    await expect(Promise.all([task('a'), task('b'), task('c')])).resolves.toEqual(['a', 'b', 'c']);
    expect(maxRunning).toBe(1);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(locks.busy).toBe(0);
  });

  it('lets different streams run at the same time', async () => {
    const locks = new StreamLocks();
    let release!: () => void;
    const blocker = locks.run('device-a', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(locks.run('device-b', async () => 'b ran')).resolves.toBe('b ran');
    release();
    await blocker;
  });

  it('keeps going after a failed command', async () => {
    const locks = new StreamLocks();
    const failed = locks.run('arq-1', async () => {
      throw new Error('boom');
    });
    const next = locks.run('arq-1', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});
