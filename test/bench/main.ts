/**
 * `npm run bench -- --out FILE [--stores sqlite,postgres] [--only a,b] [--quick]`:
 * runs every registered benchmark module on each store, prints a table on
 * stdout (progress goes to stderr) and writes the records to FILE.
 * See docs/benchmarks.md.
 */
import { loadavg } from 'node:os';
import { parseBenchOptions } from './bench-options';
import { planBenchmarks } from './bench-plan';
import { BENCH_MODULES } from './bench-registry';
import { DEFAULT_SIZES, QUICK_SIZES } from './bench-sizes';
import { formatTable } from './report/format-table';
import { writeRecords } from './report/write-records';
import { runBenchmarks } from './run-benchmarks';

async function main(): Promise<number> {
  const options = parseBenchOptions(process.argv.slice(2), process.env);
  const plan = planBenchmarks(BENCH_MODULES, options.only);
  const started = performance.now();
  const progress = (message: string) => {
    // The load average shows when other work on the machine was competing with a measurement.
    const elapsed = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
    process.stderr.write(`[bench ${elapsed} s, load ${loadavg()[0].toFixed(1)}] ${message}\n`);
  };
  progress(`${options.quick ? 'quick' : 'full'} run on ${options.stores.join(', ')}`);
  const { records, failures } = await runBenchmarks(plan, options, options.quick ? QUICK_SIZES : DEFAULT_SIZES, progress);
  const path = writeRecords(options.out, records);
  process.stdout.write(`${formatTable(records, plan.specs)}\n`);
  progress(`${records.length} records written to ${path}${failures > 0 ? `; ${failures} benchmark(s) FAILED (see above)` : ''}`);
  return failures > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 2;
  },
);
