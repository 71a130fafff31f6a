import type { ValidationArguments, ValidationError as ClassValidationError } from 'class-validator';
import { TransformationType } from 'class-transformer';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

// Two internals, by their published paths (their types ship under types/): class-transformer's record of @Type
// and friends, and class-validator's message formatting ($property, $constraint1, $value), so that a compiled
// check says exactly what the pipe says.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage: transformMetadata } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ValidationUtils } = require('class-validator/cjs/validation/ValidationUtils') as typeof import('class-validator/types/validation/ValidationUtils');

/**
 * A body DTO's class-validator decorators, read once and compiled into a
 * plain check of the parsed JSON (docs/validation.md).
 *
 * Nest's ValidationPipe pays per request for class-transformer building an
 * instance of every nested class, and for class-validator looking up and
 * grouping each class's metadata again. On the agents' heartbeat and report
 * (8 devices, 20 attach handles) that was most of the call. The compiled
 * check runs the same constraint functions (the decorators' `validate` and
 * `defaultMessage`) in the same order, with the same options the ledger's
 * pipe sets (whitelist, forbidNonWhitelisted, forbidUnknownValues), and
 * returns the same errors; test/e2e/compiled-validation.e2e-spec.ts holds
 * it to the pipe on every body DTO of the API with generated bodies.
 *
 * A class it cannot reproduce exactly — class-transformer conversions
 * (@Type to anything but a validated class, @Transform, @Expose, @Exclude),
 * field defaults, async or grouped constraints, nested properties without
 * @Type — is not compiled (`compileDtoCheck` returns undefined) and goes
 * through the pipe as before.
 */
export type DtoCheck = (body: Record<string, unknown>) => ClassValidationError[];

interface Constraint {
  readonly type: string;
  readonly metadata: ValidationMetadata;
  readonly validate: (value: unknown, args: ValidationArguments) => unknown;
  readonly defaultMessage?: (args: ValidationArguments) => string;
}

/** What a property is checked by; the property's name comes with it, or is an array element's index. */
interface PropertyRules {
  /** @IsOptional and @ValidateIf: the property is checked only when all say so. */
  readonly conditions: readonly ValidationMetadata[];
  readonly defined: readonly Constraint[];
  readonly custom: readonly Constraint[];
  readonly nested: readonly NestedCheck[];
}

interface PropertyCheck extends PropertyRules {
  readonly name: string;
}

interface NestedCheck {
  readonly metadata: ValidationMetadata;
  readonly check: ClassCheck;
  /** As class-validator: each element of an array is a property of its own, checked by the same nested rule. */
  readonly eachElement: PropertyRules;
}

interface ClassCheck {
  readonly targetName: string;
  readonly known: ReadonlySet<string>;
  properties: readonly PropertyCheck[];
}

class NotCompilable extends Error {}

/** Each class's compiled check once built, or null when it cannot be compiled. */
const compiled = new Map<Function, ClassCheck | null>();
const checks = new Map<Function, DtoCheck | undefined>();

/** The compiled check of `dto` (built on first use), or undefined when only the pipe can check it faithfully. */
export function compileDtoCheck(dto: Function): DtoCheck | undefined {
  if (!checks.has(dto)) {
    const check = classCheck(dto, new Map());
    checks.set(dto, check === undefined ? undefined : (body) => runClass(check, body));
  }
  return checks.get(dto);
}

function classCheck(dto: Function, compiling: Map<Function, ClassCheck>): ClassCheck | undefined {
  const known = compiled.get(dto);
  if (known !== undefined) return known ?? undefined;
  try {
    const check = buildClassCheck(dto, compiling);
    compiled.set(dto, check);
    return check;
  } catch (error) {
    if (!(error instanceof NotCompilable)) throw error;
    compiled.set(dto, null);
    return undefined;
  }
}

function buildClassCheck(dto: Function, compiling: Map<Function, ClassCheck>): ClassCheck {
  const storage = getMetadataStorage();
  // The same call, with the same arguments, as class-validator's ValidationExecutor.
  const metadatas = storage.getTargetValidationMetadatas(dto, '', false, false, undefined);
  if (metadatas.length === 0) throw new NotCompilable();
  refuseTransformations(dto);
  const grouped = storage.groupByPropertyName(metadatas);
  const check: ClassCheck = { targetName: dto.name, known: new Set(Object.keys(grouped).filter((name) => grouped[name].length > 0)), properties: [] };
  // Registered before its properties, so a class nested in itself refers to this check.
  compiling.set(dto, check);
  check.properties = Object.keys(grouped).map((name) => propertyCheck(dto, name, grouped[name], compiling));
  return check;
}

function refuseTransformations(dto: Function): void {
  let instance: object;
  try {
    instance = Reflect.construct(dto, []);
  } catch {
    throw new NotCompilable();
  }
  // Field defaults, methods and class-transformer's own decorators change what the handler receives: the
  // compiled check hands it the parsed JSON itself, not an instance.
  // (Declared fields are own properties, undefined, under ES2022 class fields: only a value counts.)
  if (Object.values(instance).some((value) => value !== undefined)) throw new NotCompilable();
  if (Object.getOwnPropertyNames(dto.prototype).some((name) => name !== 'constructor')) throw new NotCompilable();
  if (transformMetadata.getExposedMetadatas(dto).length > 0 || transformMetadata.getExcludedMetadatas(dto).length > 0) throw new NotCompilable();
}

function propertyCheck(dto: Function, name: string, metadatas: ValidationMetadata[], compiling: Map<Function, ClassCheck>): PropertyCheck {
  for (const metadata of metadatas) {
    if (metadata.type === ValidationTypes.PROMISE_VALIDATION || (metadata.groups?.length ?? 0) > 0 || metadata.always || metadata.context) throw new NotCompilable();
  }
  for (const kind of [TransformationType.PLAIN_TO_CLASS, TransformationType.CLASS_TO_PLAIN, TransformationType.CLASS_TO_CLASS]) {
    if (transformMetadata.findTransformMetadatas(dto, name, kind).length > 0) throw new NotCompilable();
  }
  const type = transformMetadata.findTypeMetadata(dto, name);
  const nested = metadatas.filter((metadata) => metadata.type === ValidationTypes.NESTED_VALIDATION);
  const nestedClass = type?.typeFunction();
  if (type !== undefined && (nested.length === 0 || typeof nestedClass !== 'function' || type.options?.discriminator)) throw new NotCompilable();
  if (nested.length > 0 && nestedClass === undefined) throw new NotCompilable();
  return {
    name,
    conditions: metadatas.filter((metadata) => metadata.type === ValidationTypes.CONDITIONAL_VALIDATION),
    defined: constraints(metadatas.filter((metadata) => metadata.type === ValidationTypes.IS_DEFINED)),
    custom: constraints(metadatas.filter((metadata) => metadata.type === ValidationTypes.CUSTOM_VALIDATION)),
    nested: nested.map((metadata) => nestedEntry(metadata, nestedCheck(nestedClass as Function, compiling))),
  };
}

function nestedEntry(metadata: ValidationMetadata, check: ClassCheck): NestedCheck {
  const nested: NestedCheck[] = [];
  const entry: NestedCheck = { metadata, check, eachElement: { conditions: [], defined: [], custom: [], nested } };
  nested.push(entry);
  return entry;
}

/** A nested class's check; a class that cannot be compiled makes its container the pipe's too. */
function nestedCheck(dto: Function, compiling: Map<Function, ClassCheck>): ClassCheck {
  const check = compiling.get(dto) ?? classCheck(dto, compiling);
  if (check === undefined) throw new NotCompilable();
  return check;
}

function constraints(metadatas: ValidationMetadata[]): Constraint[] {
  return metadatas.flatMap((metadata) =>
    getMetadataStorage()
      .getTargetValidatorConstraints(metadata.constraintCls)
      .map((constraint) => {
        if (constraint.async) throw new NotCompilable();
        const instance = constraint.instance as { validate: Constraint['validate']; defaultMessage?: Constraint['defaultMessage'] };
        return {
          type: constraint.name || metadata.type,
          metadata,
          validate: instance.validate.bind(instance),
          defaultMessage: typeof instance.defaultMessage === 'function' ? instance.defaultMessage.bind(instance) : undefined,
        };
      }),
  );
}

// The checks below follow class-validator 0.14's ValidationExecutor step for step (execute, whitelist,
// performValidations, customValidations, nestedValidations, stripEmptyErrors), minus what the compiler refused.

function runClass(check: ClassCheck, object: Record<string, unknown>): ClassValidationError[] {
  const errors: ClassValidationError[] = [];
  executeClass(check, object, errors);
  return stripEmptyErrors(errors);
}

function executeClass(check: ClassCheck, object: Record<string, unknown>, errors: ClassValidationError[]): void {
  for (const property of Object.keys(object)) {
    if (!check.known.has(property)) errors.push(error(property, { [ValidationTypes.WHITELIST]: `property ${property} should not exist` }, undefined));
  }
  for (const property of check.properties) performValidations(check, object, object[property.name], property.name, property, errors);
}

function performValidations(check: ClassCheck, object: object, value: unknown, name: string, property: PropertyRules, errors: ClassValidationError[]): void {
  const found = error(name, {}, []);
  errors.push(found);
  for (const condition of property.conditions) {
    if (!(condition.constraints[0] as (object: object, value: unknown) => boolean)(object, value)) return;
  }
  customValidations(check, object, value, name, property.defined, found);
  customValidations(check, object, value, name, property.custom, found);
  nestedValidations(value, property.nested, found);
}

function customValidations(check: ClassCheck, object: object, value: unknown, property: string, constraints: readonly Constraint[], found: ClassValidationError): void {
  for (const constraint of constraints) {
    const args: ValidationArguments = { targetName: check.targetName, property, object, value, constraints: constraint.metadata.constraints };
    const valid =
      constraint.metadata.each && Array.isArray(value)
        ? value.every((item) => constraint.validate(item, args))
        : constraint.validate(value, args);
    if (!valid) found.constraints![constraint.type] = message(constraint.metadata, args, constraint.defaultMessage);
  }
}

function nestedValidations(value: unknown, nested: readonly NestedCheck[], found: ClassValidationError): void {
  if (value === undefined) return;
  for (const { metadata, check, eachElement } of nested) {
    if (Array.isArray(value)) {
      value.forEach((item, index) => performValidations(check, value, item, index.toString(), eachElement, found.children!));
    } else if (value instanceof Object) {
      executeClass(check, value as Record<string, unknown>, found.children!);
    } else {
      // class-validator names the decorated class itself as the object here, so its target is "Function".
      const args: ValidationArguments = { targetName: Function.name, property: metadata.propertyName, object: metadata.target as object, value, constraints: metadata.constraints };
      found.constraints![metadata.type] = message(metadata, args, undefined);
    }
  }
}

function message(metadata: ValidationMetadata, args: ValidationArguments, defaultMessage: Constraint['defaultMessage']): string {
  const text = metadata.message || (defaultMessage ? defaultMessage(args) : '');
  return ValidationUtils.replaceMessageSpecialTokens(text, args);
}

function error(property: string, constraints: Record<string, string>, children: ClassValidationError[] | undefined): ClassValidationError {
  return { property, constraints, children } as ClassValidationError;
}

function stripEmptyErrors(errors: ClassValidationError[]): ClassValidationError[] {
  return errors.filter((found) => {
    if (found.children) found.children = stripEmptyErrors(found.children);
    if (Object.keys(found.constraints ?? {}).length === 0) {
      if ((found.children ?? []).length === 0) return false;
      delete found.constraints;
    }
    return true;
  });
}
