import { type ArgumentMetadata, ValidationPipe, type ValidationPipeOptions, type ValidationError as ClassValidationError } from '@nestjs/common';
import { ValidationError } from '@ledger/kernel';
import { compileDtoCheck } from './compiled-dto-check';

/**
 * class-validator on every body and query DTO. Unknown properties are
 * refused, so a typo is an error rather than a silently ignored field.
 * A JSON body whose DTO compiles (compiled-dto-check.ts) is checked by the
 * compiled form of the same decorators, with the same errors, without
 * class-transformer building instances (docs/validation.md).
 */
export const requestValidationPipe = () => new LedgerValidationPipe(REQUEST_VALIDATION);

/** The pipe's options, for the one test that holds the compiled checks to Nest's own pipe. */
export const REQUEST_VALIDATION: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => {
    const problems = flatten(errors);
    return new ValidationError('REQUEST.INVALID', problems.map((p) => `${p.path}: ${p.problem}`).join('; '), {
      errors: problems,
    });
  },
};

class LedgerValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const check = metadata.type === 'body' && isJsonObject(value) && metadata.metatype ? compileDtoCheck(metadata.metatype) : undefined;
    if (check === undefined) return super.transform(value, metadata);
    dropWhatThePipeDrops(value);
    const errors = check(value as Record<string, unknown>);
    if (errors.length > 0) throw await this.exceptionFactory(errors);
    return value;
  }
}

/** What a JSON body parser gives for `{…}`: a plain object (arrays and primitives keep the pipe's own handling). */
function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * What the class path leaves out of the object it validates, silently, at
 * every depth: the pipe's own stripping of `__proto__`, `prototype` and
 * `constructor` (a JSON value is never one of the built-in constructors it
 * spares), and class-transformer's skipping of any member that would shadow
 * an inherited method (`toString`, `valueOf`, `hasOwnProperty`…). One walk
 * does both, so the compiled check sees what class-validator would.
 */
function dropWhatThePipeDrops(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) dropWhatThePipeDrops(item);
    return;
  }
  const members = value as Record<string, unknown>;
  for (const key of Object.keys(members)) {
    if (key === '__proto__' || key === 'prototype' || typeof (Object.prototype as Record<string, unknown>)[key] === 'function') delete members[key];
    else dropWhatThePipeDrops(members[key]);
  }
}

function flatten(errors: ClassValidationError[], prefix = ''): { path: string; problem: string }[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((problem) => ({ path, problem }));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}
