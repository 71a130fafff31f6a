import { ValidateBy, type ValidationOptions } from 'class-validator';

const MAX_NAME_LENGTH = 64;

/**
 * A flat object of at most `maxMembers` finite numbers (`utilizationPct`,
 * `memoryUsedGiB`…): telemetry samples. Names are free (the protocol allows
 * any numeric member) but short, so a sample stays small.
 */
export function IsTelemetryRecord(maxMembers: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTelemetryRecord',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          const entries = Object.entries(value);
          return (
            entries.length <= maxMembers &&
            entries.every(([name, sample]) => name.length >= 1 && name.length <= MAX_NAME_LENGTH && typeof sample === 'number' && Number.isFinite(sample))
          );
        },
        defaultMessage: (args) =>
          `${args?.property ?? 'telemetry'} must be an object of at most ${maxMembers} finite numbers with names of 1 to ${MAX_NAME_LENGTH} characters`,
      },
    },
    options,
  );
}
