import type { BenchContext } from './bench-context';

/** One record a module can produce: its name, its unit and the ceiling it is compared with. */
export interface RecordSpec {
  readonly name: string;
  readonly unit: string;
  /** Name of a record measured in the same run on the same store; the ratio is value / ceiling. */
  readonly ceiling?: string;
  /** Decimals kept in the file (default 3 for ms, else 0). */
  readonly digits?: number;
  /**
   * The range a sound measurement lies in (e.g. 0 for a time or a CPU cost,
   * 100 for a share in percent): a value outside it, or not a number, is a
   * broken measurement, and the runner refuses to write it and fails the
   * module with the value in its message. Overheads measured as the
   * difference of two noisy runs may fall below 0 and declare no minimum.
   */
  readonly min?: number;
  readonly max?: number;
}

/** A value a module measured, before the runner adds store, unit and ratio. */
export interface Measurement {
  readonly name: string;
  readonly value: number;
  /** How it was measured, where the name cannot say (the load it was measured under). */
  readonly notes?: string;
}

/**
 * A benchmark module: measures some records on one store. The runner calls
 * `run` once per store with the names it wants (a subset of `records`), and
 * a module measures only those. To add benchmarks, write a module and list
 * it in bench-registry.ts.
 */
export interface BenchModule {
  readonly records: readonly RecordSpec[];
  run(context: BenchContext, wanted: ReadonlySet<string>): Promise<Measurement[]>;
}

/** One line of the results file. */
export interface BenchRecord {
  readonly name: string;
  readonly store: string;
  readonly value: number;
  readonly unit: string;
  /** value / the ceiling's value on the same store, or null where no ceiling applies. */
  readonly ratio_to_ceiling: number | null;
  readonly notes?: string;
}

/**
 * Thrown by a module whose run measured some records but failed a check it
 * makes (e.g. a steady window that appended events): the runner writes the
 * records and counts the module as failed, so the failure is loud without
 * losing what was measured.
 */
export class PartialBenchFailure extends Error {
  override readonly name = 'PartialBenchFailure';

  constructor(
    message: string,
    readonly measurements: readonly Measurement[],
  ) {
    super(message);
  }
}
