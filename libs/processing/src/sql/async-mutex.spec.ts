import { AsyncMutex } from './async-mutex';

describe('AsyncMutex', () => {
  it('runs sections one at a time in call order, past failures', async () => {
    const mutex = new AsyncMutex();
    const steps: string[] = [];
    const section = (name: string, fail = false) => async () => {
      steps.push(`${name} in`);
      await Promise.resolve();
      steps.push(`${name} out`);
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([mutex.run(section('a')), mutex.run(section('b', true)), mutex.run(section('c'))]);
    expect(steps).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
