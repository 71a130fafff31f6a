import { ValidationPipe, type ValidationError as ClassValidationError } from '@nestjs/common';
import { ValidationError } from '@ledger/kernel';

/**
 * class-validator on every body and query DTO. Unknown properties are
 * refused, so a typo is an error rather than a silently ignored field.
 */
export const requestValidationPipe = () =>
  new ValidationPipe({
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
  });

function flatten(errors: ClassValidationError[], prefix = ''): { path: string; problem: string }[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((problem) => ({ path, problem }));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}
