import type { BenchModule, RecordSpec } from './bench-module';

/** Which records each module is asked for. */
export interface BenchPlan {
  readonly modules: ReadonlyArray<{ readonly module: BenchModule; readonly wanted: ReadonlySet<string> }>;
  readonly specs: ReadonlyMap<string, RecordSpec>;
}

/**
 * Every record, or those named in `--only` plus the ceilings they are
 * compared with (so their ratio can be computed). Unknown names are an error.
 */
export function planBenchmarks(modules: readonly BenchModule[], only: readonly string[] | undefined): BenchPlan {
  const specs = new Map(modules.flatMap((module) => module.records.map((spec) => [spec.name, spec] as const)));
  const unknown = (only ?? []).filter((name) => !specs.has(name));
  if (unknown.length > 0) {
    throw new Error(`unknown record name(s) ${unknown.join(', ')}; known: ${[...specs.keys()].join(', ')}`);
  }
  const named = only ?? [...specs.keys()];
  const wanted = new Set([...named, ...named.flatMap((name) => specs.get(name)?.ceiling ?? [])]);
  return {
    modules: modules
      .map((module) => ({ module, wanted: new Set(module.records.map((spec) => spec.name).filter((name) => wanted.has(name))) }))
      .filter((entry) => entry.wanted.size > 0),
    specs,
  };
}
