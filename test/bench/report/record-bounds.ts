import type { Measurement, RecordSpec } from '../bench-module';

/** Why `value` cannot be written as `spec`'s record, or undefined when it lies within the spec's bounds. */
export function outOfBounds(spec: RecordSpec, value: number): string | undefined {
  const refuse = (problem: string) => `${spec.name} = ${value} ${spec.unit} is ${problem}: an impossible figure, not written`;
  if (spec.min === undefined && spec.max === undefined) return undefined;
  if (!Number.isFinite(value)) return refuse('not a finite number');
  if (spec.min !== undefined && value < spec.min) return refuse(`below its minimum of ${spec.min} ${spec.unit}`);
  if (spec.max !== undefined && value > spec.max) return refuse(`above its maximum of ${spec.max} ${spec.unit}`);
  return undefined;
}

/** The measurements within their records' bounds, and a reason for each one refused. */
export function withinBounds(specs: ReadonlyMap<string, RecordSpec>, measurements: readonly Measurement[]): { kept: Measurement[]; refused: string[] } {
  const kept: Measurement[] = [];
  const refused: string[] = [];
  for (const measurement of measurements) {
    const spec = specs.get(measurement.name);
    const reason = spec && outOfBounds(spec, measurement.value);
    if (reason) refused.push(reason);
    else kept.push(measurement);
  }
  return { kept, refused };
}

/**
 * A module returned values outside their records' bounds: they were not
 * written (the module's other records were), and the module counts as failed.
 */
export class ImpossibleRecordError extends Error {
  override readonly name = 'ImpossibleRecordError';

  constructor(
    readonly refused: readonly string[],
    /** The module's own failure, when it failed as well. */
    readonly moduleFailure?: unknown,
  ) {
    super([...refused, ...(moduleFailure === undefined ? [] : [`and the module failed: ${(moduleFailure as Error)?.stack ?? String(moduleFailure)}`])].join('\n'));
  }
}
