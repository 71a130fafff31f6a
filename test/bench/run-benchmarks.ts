import { createBenchContext } from './bench-context';
import { type BenchRecord, type Measurement, PartialBenchFailure } from './bench-module';
import type { BenchOptions, StoreName } from './bench-options';
import type { BenchPlan } from './bench-plan';
import type { BenchSizes } from './bench-sizes';
import { ImpossibleRecordError, withinBounds } from './report/record-bounds';
import type { BenchTarget } from './targets/bench-target';
import { openPostgresTarget } from './targets/postgres-target';
import { openSqliteTarget } from './targets/sqlite-target';

export interface BenchOutcome {
  readonly records: BenchRecord[];
  /** Modules that threw: reported on stderr, their records missing. */
  readonly failures: number;
}

/**
 * Runs the plan on each store in turn. A module that throws is reported and
 * the run goes on; an unreachable PostgreSQL is reported and skipped. A
 * value outside its record's bounds is not written, and fails its module.
 */
export async function runBenchmarks(
  plan: BenchPlan,
  options: BenchOptions,
  sizes: BenchSizes,
  progress: (message: string) => void,
): Promise<BenchOutcome> {
  const measured: Array<Measurement & { store: string }> = [];
  let failures = 0;
  let interrupted = false;
  const reportError = (what: string) => (error: unknown) => {
    // After an interrupt, benchmarks fail because their stores were closed under them.
    if (interrupted) return;
    failures++;
    progress(`ERROR ${what}: ${(error as Error)?.stack ?? String(error)}`);
  };
  for (const storeName of options.stores) {
    const target = await openTarget(storeName, options, reportError(`closing ${storeName}`));
    if (typeof target === 'string') {
      progress(`${storeName}: SKIPPED, PostgreSQL is unreachable at ${redact(options.postgresUrl)} (${target}); set LEDGER_BENCH_POSTGRES_URL`);
      continue;
    }
    const context = createBenchContext(target, sizes, progress);
    // An interrupted run still removes its files and schemas.
    const interrupt = (signal: NodeJS.Signals) => {
      interrupted = true;
      progress(`${signal}: removing ${target.name} files and schemas`);
      void target.close().finally(() => process.exit(130));
    };
    process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
    try {
      for (const { module, wanted } of plan.modules) {
        /** Keeps the wanted measurements within their bounds; says which were refused. */
        const keep = (results: readonly Measurement[]): readonly string[] => {
          const { kept, refused } = withinBounds(plan.specs, results.filter((result) => wanted.has(result.name)));
          measured.push(...kept.map((result) => ({ ...result, store: target.name })));
          return refused;
        };
        const failed = reportError(`${target.name}: ${[...wanted].join(', ')}`);
        try {
          const refused = keep(await module.run(context, wanted));
          if (refused.length > 0) failed(new ImpossibleRecordError(refused));
        } catch (error) {
          const refused = error instanceof PartialBenchFailure ? keep(error.measurements) : [];
          failed(refused.length > 0 ? new ImpossibleRecordError(refused, error) : error);
        }
      }
    } finally {
      process.off('SIGINT', interrupt).off('SIGTERM', interrupt);
      await target.close();
    }
  }
  return { records: toRecords(plan, measured), failures };
}

async function openTarget(store: StoreName, options: BenchOptions, onCloseError: (error: unknown) => void): Promise<BenchTarget | string> {
  return store === 'sqlite' ? openSqliteTarget(onCloseError) : openPostgresTarget(options.postgresUrl, onCloseError);
}

/** Records in plan order (record, then store), each with its unit and its ratio to its ceiling on the same store. */
function toRecords(plan: BenchPlan, measured: ReadonlyArray<Measurement & { store: string }>): BenchRecord[] {
  const valueOf = (name: string, store: string) => measured.find((result) => result.name === name && result.store === store)?.value;
  return [...plan.specs.values()].flatMap((spec) =>
    measured
      .filter((result) => result.name === spec.name)
      .map((result) => {
        const ceiling = spec.ceiling === undefined ? undefined : valueOf(spec.ceiling, result.store);
        return {
          name: result.name,
          store: result.store,
          value: round(result.value, spec.digits ?? (spec.unit === 'ms' ? 3 : 0)),
          unit: spec.unit,
          ratio_to_ceiling: ceiling ? round(result.value / ceiling, 3) : null,
          ...(result.notes === undefined ? {} : { notes: result.notes }),
        };
      }),
  );
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/** The URL without its password, for messages. */
const redact = (url: string): string => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
