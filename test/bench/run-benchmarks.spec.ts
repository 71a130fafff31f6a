import { type BenchModule, PartialBenchFailure } from './bench-module';
import type { BenchOptions } from './bench-options';
import { planBenchmarks } from './bench-plan';
import { QUICK_SIZES } from './bench-sizes';
import { runBenchmarks } from './run-benchmarks';

const OPTIONS: BenchOptions = { out: '/dev/null', stores: ['sqlite'], only: undefined, quick: true, postgresUrl: 'postgres://unused' };

const twoCosts = (run: BenchModule['run']): BenchModule => ({
  records: [
    { name: 'heartbeat_cpu_ms', unit: 'ms', min: 0 },
    { name: 'report_cpu_ms', unit: 'ms', min: 0 },
  ],
  run,
});

async function run(bench: BenchModule) {
  const progress: string[] = [];
  const outcome = await runBenchmarks(planBenchmarks([bench], undefined), OPTIONS, QUICK_SIZES, (line) => progress.push(line));
  return { ...outcome, progress: progress.join('\n') };
}

describe('runBenchmarks: bounds', () => {
  it('does not write a value outside its bounds, writes the module’s others, and fails the module naming the value', async () => {
    const outcome = await run(
      twoCosts(async () => [
        { name: 'heartbeat_cpu_ms', value: -2.733 },
        { name: 'report_cpu_ms', value: 2.77 },
      ]),
    );
    expect(outcome.records.map((record) => [record.name, record.value])).toEqual([['report_cpu_ms', 2.77]]);
    expect(outcome.failures).toBe(1);
    expect(outcome.progress).toContain('heartbeat_cpu_ms = -2.733 ms is below its minimum of 0 ms');
  });

  it('checks the records a partly failed module kept, and reports both failures as one', async () => {
    const outcome = await run(
      twoCosts(async () => {
        throw new PartialBenchFailure('the window appended 3 event(s)', [{ name: 'heartbeat_cpu_ms', value: Number.NaN }]);
      }),
    );
    expect(outcome.records).toEqual([]);
    expect(outcome.failures).toBe(1);
    expect(outcome.progress).toContain('heartbeat_cpu_ms = NaN ms is not a finite number');
    expect(outcome.progress).toContain('the window appended 3 event(s)');
  });
});
