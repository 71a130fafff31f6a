import fc from 'fast-check';

/** A JSON Schema as the two OpenAPI documents write them (3.0 with `nullable`, 3.1 with type arrays). */
export type Schema = Record<string, any>;

/** Values that break the usual assumptions of a parser or validator, for any member of a body. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, -0, 1.5, 2 ** 53, -(2 ** 53) - 2, 1e308, '', ' ', '0', 'null', '__proto__', '../../etc/passwd', '\u0000', '\ud800', '\u202e', 'ǅ', '🜏'.repeat(3)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.constant({}),
  fc.constant([]),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
);

/** Values the schema accepts (as far as fast-check can invert its patterns), with nothing hostile mixed in. */
export const cleanSchemaArbitrary = (schema: Schema, root: Schema, known: readonly string[] = []): fc.Arbitrary<unknown> =>
  validArbitrary(schema, root, 0, { hostile: false, known });

/** How to fill a schema: with hostile values mixed in or not, and the ids and names the ledger holds, for plain strings and uuids. */
interface Generation {
  readonly hostile: boolean;
  readonly known?: readonly string[];
}

/**
 * Values shaped by a schema: mostly what the schema asks for (so requests
 * reach past shape validation into the domain), sometimes something else at
 * any level (so validation sees every kind of wrong member).
 */
export function schemaArbitrary(schema: Schema, root: Schema, depth = 0, generation: Generation = { hostile: true }): fc.Arbitrary<unknown> {
  const valid = validArbitrary(schema, root, depth, generation);
  return depth > 6 || !generation.hostile ? valid : fc.oneof({ arbitrary: valid, weight: 9 }, { arbitrary: hostileValue, weight: 1 });
}

function validArbitrary(schema: Schema, root: Schema, depth: number, generation: Generation): fc.Arbitrary<unknown> {
  if (schema.$ref) return schemaArbitrary(resolveRef(schema.$ref, root), root, depth, generation);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative: Schema) => schemaArbitrary(alternative, root, depth + 1, generation)));
  if (schema.allOf) return schemaArbitrary(Object.assign({}, ...schema.allOf.map((part: Schema) => (part.$ref ? resolveRef(part.$ref, root) : part))), root, depth, generation);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : guessTypes(schema);
  const nullable = schema.nullable === true || types.includes('null');
  const arbitraries = types.filter((type) => type !== 'null').map((type) => typedArbitrary(type, schema, root, depth, generation));
  if (nullable) arbitraries.push(fc.constant(null));
  return arbitraries.length === 0 ? (generation.hostile ? hostileValue : fc.constant(null)) : fc.oneof(...arbitraries);
}

function typedArbitrary(type: string, schema: Schema, root: Schema, depth: number, generation: Generation): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return withKnown(stringArbitrary(schema), schema, generation.known ?? []);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, Number.MIN_SAFE_INTEGER), max: Math.min(schema.maximum ?? 1000, Number.MAX_SAFE_INTEGER) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schemaArbitrary(schema.items ?? {}, root, depth + 1, generation), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'object':
      return objectArbitrary(schema, root, depth, generation);
    default:
      return hostileValue;
  }
}

function objectArbitrary(schema: Schema, root: Schema, depth: number, generation: Generation): fc.Arbitrary<unknown> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const known = fc.record(
    Object.fromEntries(Object.entries(properties).map(([name, member]) => [name, schemaArbitrary(member, root, depth + 1, generation)])),
    { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) },
  );
  const extra = schema.additionalProperties;
  if (!extra || typeof extra !== 'object') return known;
  // A map (e.g. a bind patch: request uuid → JSON patch): keys from propertyNames when given.
  const keys = schema.propertyNames ? stringArbitrary(schema.propertyNames) : fc.string({ minLength: 1, maxLength: 12 });
  return fc.tuple(known, fc.dictionary(keys, schemaArbitrary(extra, root, depth + 1, generation), { minKeys: 1, maxKeys: 3 })).map(([a, b]) => ({ ...b, ...(a as object) }));
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  if (schema.format === 'byte') return fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64'));
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? Infinity) && text.length >= (schema.minLength ?? 0));
    } catch {
      // a pattern fast-check cannot invert: fall through to a plain string
    }
  }
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 24, 64) });
}

/** A string schema's values, and half the time one the ledger holds that the schema accepts (a profile's name, a deployable's uuid). */
function withKnown(generated: fc.Arbitrary<string>, schema: Schema, known: readonly string[]): fc.Arbitrary<string> {
  const pattern = schema.pattern ? new RegExp(schema.pattern) : undefined;
  const accepted = known.filter(
    (value) => (!pattern || pattern.test(value)) && value.length <= (schema.maxLength ?? Infinity) && (schema.format !== 'uuid' || UUID.test(value)),
  );
  return accepted.length === 0 || schema.format === 'date-time' || schema.format === 'byte' ? generated : fc.oneof(fc.constantFrom(...accepted), generated);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const guessTypes = (schema: Schema): string[] => (schema.properties || schema.additionalProperties ? ['object'] : schema.items ? ['array'] : []);

export function resolveRef(ref: string, root: Schema): Schema {
  if (!ref.startsWith('#/')) throw new Error(`fuzz: only local $refs are followed, not ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .reduce((node, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], root);
}
