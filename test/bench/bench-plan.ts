import type { BenchModule, RecordSpec } from './bench-module';

/** Which records each module is asked for. */
export interface BenchPlan {
  readonly modules: ReadonlyArray<{ readonly module: BenchModule; readonly wanted: ReadonlySet<string> }>;
  readonly specs: ReadonlyMap<string, RecordSpec>;
}

/**
 * Every record, or those named in `--only` plus the ceilings they are
 * compared with (so their ratio can be computed). A name ending in `*`
 * stands for every record it prefixes (`v2_*`). Unknown names, and
 * prefixes of no record, are an error.
 */
export function planBenchmarks(modules: readonly BenchModule[], only: readonly string[] | undefined): BenchPlan {
  const specs = new Map(modules.flatMap((module) => module.records.map((spec) => [spec.name, spec] as const)));
  const known = [...specs.keys()];
  const unknown = (only ?? []).filter((pattern) => recordsMatching(pattern, known).length === 0);
  if (unknown.length > 0) {
    throw new Error(`unknown record name(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  }
  const named = only ? only.flatMap((pattern) => recordsMatching(pattern, known)) : known;
  const wanted = new Set([...named, ...named.flatMap((name) => specs.get(name)?.ceiling ?? [])]);
  return {
    modules: modules
      .map((module) => ({ module, wanted: new Set(module.records.map((spec) => spec.name).filter((name) => wanted.has(name))) }))
      .filter((entry) => entry.wanted.size > 0),
    specs,
  };
}

/** The records `pattern` names: itself if known, or every record it prefixes when it ends in `*`. */
function recordsMatching(pattern: string, known: readonly string[]): string[] {
  if (!pattern.endsWith('*')) return known.includes(pattern) ? [pattern] : [];
  return known.filter((name) => name.startsWith(pattern.slice(0, -1)));
}
