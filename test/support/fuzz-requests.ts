import fc from 'fast-check';
import { cleanSchemaArbitrary, hostileValue, resolveRef, type Schema, schemaArbitrary } from './fuzz-schema';

/** Who sends a fuzzed request: each names a token the suite issues (or none, or garbage). */
export const PRINCIPALS = ['operator', 'admin', 'member', 'tenant', 'service', 'agent', 'none', 'garbage', 'bearer-admin'] as const;
export type PrincipalName = (typeof PRINCIPALS)[number];

/** Callers weighted towards those whom some endpoint serves, so requests get past authorisation too. */
const principal: fc.Arbitrary<PrincipalName> = fc.oneof(
  { arbitrary: fc.constant<PrincipalName>('operator'), weight: 4 },
  { arbitrary: fc.constantFrom<PrincipalName>('admin', 'service', 'agent'), weight: 5 },
  { arbitrary: fc.constantFrom<PrincipalName>('member', 'tenant', 'bearer-admin'), weight: 3 },
  { arbitrary: fc.constantFrom<PrincipalName>('none', 'garbage'), weight: 1 },
);

/** One documented operation of either API. */
export interface Operation {
  readonly api: 'native' | 'v2';
  readonly method: string;
  readonly template: string;
  readonly parameters: readonly Schema[];
  readonly bodySchema: Schema | undefined;
  readonly document: Schema;
}

export interface FuzzRequest {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly principal: PrincipalName;
}

/** Every operation of an OpenAPI document, with its parameters resolved. */
export function operationsOf(api: Operation['api'], document: Schema): Operation[] {
  return Object.entries(document.paths as Record<string, Record<string, Schema>>).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'parameters')
      .map(([method, operation]) => ({
        api,
        method: method.toUpperCase(),
        template,
        parameters: [...((item.parameters as Schema[] | undefined) ?? []), ...((operation.parameters as Schema[] | undefined) ?? [])].map((parameter: Schema) =>
          parameter.$ref ? resolveRef(parameter.$ref, document) : parameter,
        ),
        bodySchema: operation.requestBody?.content?.['application/json']?.schema,
        document,
      })),
  );
}

/** Path segments that stress the router and the URL decoder: sent as they are, not encoded. */
const RAW_SEGMENTS = ['%ZZ', '%C0%AF', '%E2%82', '%00', '%2F', '%2e%2e', '..', '.', '%20', '%F0%9F%9C%8F', 'a'.repeat(9000), `${'%41'.repeat(3000)}`];
/** Microversion headers: in range, out of range, another service, garbage, huge. */
const MICROVERSIONS = [
  'accelerator 2.0', 'accelerator 2.1', 'accelerator 2.2', 'accelerator 2.3', 'accelerator latest', 'ACCELERATOR 2.3',
  'accelerator 2.4', 'accelerator 3.0', 'accelerator 1.0', 'accelerator 2', 'accelerator 2.', 'accelerator 2.03', 'accelerator -2.1',
  'accelerator 2.99999999999999999999', 'compute 2.1', 'accelerator 2.3, compute 2.1', 'accelerator', '', 'accelerator 2.3 ', `accelerator ${'9'.repeat(5000)}`,
];
/** X-Ledger-Min-Position values that must answer at once: positions already reached, and garbage. */
const MIN_POSITIONS = ['0', '1', '', '-1', 'abc', '1e3', '0x10', ' 1', '1.5', '9'.repeat(16), '9'.repeat(400)];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json', 'multipart/form-data; boundary=x'];

/** Request bodies no schema would produce. */
const hostileBody: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 65, max: 400 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 65, max: 400 }).map((depth) => `{"a":${'{"a":'.repeat(depth)}1${'}'.repeat(depth + 1)}`),
  fc.constantFrom(100_000, 1_048_000, 1_048_600, 1_100_000).map((size) => JSON.stringify({ name: 'x'.repeat(size) })),
  fc.constantFrom(
    '', ' ', '{', '}', '{"a":}', "{'a':1}", '{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"\\ud800"}', '{"a":"\\udc00\\ud800"}', '{"a":NaN}', '{"a":1,}',
    '\ufeff{}', '{"a":1}{"b":2}', 'null', '1', '"x"', '[]', '{}', 'true', '1e400', '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"admin":true}}}', '{"a":1,"a":2}', '\u0000', '{"\u0000":1}', '{"a":"\u202e"}',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** JSON patches for the ARQ bind/unbind: good ops on wrong paths, wrong ops, missing and odd values. */
function patchArbitrary(known: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  const op = fc.record(
    {
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'ADD', '', 'add '),
      path: fc.constantFrom('/hostname', '/device_rp_uuid', '/instance_uuid', '/project_id', '/', '', '/hostname/0', '/~1', '/state', 'hostname', '/__proto__'),
      value: fc.oneof(known, fc.uuid(), hostileValue),
      from: fc.constantFrom('/hostname', '/x'),
    },
    { requiredKeys: [] },
  );
  const patch = fc.oneof(fc.array(op, { maxLength: 5 }), hostileValue);
  return fc.dictionary(fc.oneof(known, fc.uuid(), fc.string({ maxLength: 12 })), patch, { minKeys: 0, maxKeys: 3 });
}

/** What the ledger holds now, so that well-formed requests reach real aggregates and can succeed. */
export interface FuzzTargets {
  /** Ids and names of anything the ledger holds: path parameters, query values, strings and uuids of bodies. */
  readonly known: readonly string[];
  /**
   * Ids the ledger holds by the collection a path names them in (`hosts`,
   * `devices`, `jobs`, …): a well-formed request's path parameter comes
   * from the collection its path segment follows.
   */
  readonly collections: Readonly<Record<string, readonly string[]>>;
  /** Accelerator requests that can still be bound (Initial ones), as the keys of bind patches. */
  readonly arqs: readonly string[];
  /** Where a bind can land: a host and the resource provider of one of its deployables. */
  readonly bindTargets: readonly { readonly hostname: string; readonly rp: string }[];
  /** Well-formed bodies a schema cannot describe, by operation (`POST /api/v1/bitstreams`: images signed by a trusted key). */
  readonly bodies: Readonly<Record<string, fc.Arbitrary<unknown>>>;
}

/**
 * Requests for one operation, half of them well-formed (so they reach the
 * domain and change the ledger's state), half with something hostile.
 */
export const requestArbitrary = (operation: Operation, targets: FuzzTargets): fc.Arbitrary<FuzzRequest> =>
  fc.oneof(wellFormedRequestArbitrary(operation, targets), hostileRequestArbitrary(operation, targets.known));

/** A request as its operation's schemas describe it: known or uuid path parameters, valid query values, a good microversion, a valid body. */
function wellFormedRequestArbitrary(operation: Operation, targets: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const { known } = targets;
  const segmentIn = (collection: string) => {
    const held = targets.collections[collection] ?? [];
    return fc.oneof({ arbitrary: fc.constantFrom(...(held.length > 0 ? held : known)), weight: 4 }, { arbitrary: fc.uuid(), weight: 1 }).map(percentEncoded);
  };
  const query = fc
    .tuple(
      ...operation.parameters
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => {
          const value = parameter.name === 'waitSeconds' ? fc.constantFrom('0', '1') : cleanSchemaArbitrary(parameter.schema ?? {}, operation.document, known).map(asQueryText);
          return parameter.name === 'waitSeconds' ? value.map((text) => `waitSeconds=${text}`) : fc.option(value.map((text) => `${percentEncoded(parameter.name)}=${percentEncoded(text)}`), { freq: 2 });
        }),
    )
    .map((parts) => (parts.some((part) => part !== null) ? `?${parts.filter((part) => part !== null).join('&')}` : ''));
  const version = operation.api === 'v2' ? fc.option(fc.constantFrom(...MICROVERSIONS.slice(0, 5)), { freq: 4 }) : fc.constant(null);
  const name = `${operation.method} ${operation.template}`;
  const isPatch = operation.method === 'PATCH' && operation.template.startsWith('/v2/accelerator_requests');
  const bodyValue = targets.bodies[name] ?? (isPatch ? bindPatchArbitrary(targets, operation.template.endsWith('{uuid}')) : cleanSchemaArbitrary(operation.bodySchema ?? {}, operation.document, known));
  const body: fc.Arbitrary<string | undefined> = operation.bodySchema ? bodyValue.map((value) => JSON.stringify(value)) : fc.constant(undefined);
  // A patch of one request by path names that request in the path too: bind patches carry it as their only key.
  const path = isPatch && operation.template.endsWith('{uuid}') ? fc.constant(operation.template) : templatedByCollection(operation.template, segmentIn);
  return fc
    .record({ path, query, version, body, principal })
    .map(({ path, query, version, body, principal }) => ({
      operation: name,
      method: operation.method,
      path: `${pathOfPatch(path, body)}${query}`,
      headers: { ...(version === null ? {} : { 'openstack-api-version': version }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body,
      principal,
    }));
}

/**
 * A bind (or an unbind) as Nova sends it: requests that can be bound, to a
 * host and one of its providers, a fresh instance each. `onePath`: one
 * request, which the path names too (pathOfPatch).
 */
function bindPatchArbitrary(targets: FuzzTargets, onePath: boolean): fc.Arbitrary<unknown> {
  const arq = targets.arqs.length > 0 ? fc.constantFrom(...targets.arqs) : fc.uuid();
  const target = targets.bindTargets.length > 0 ? fc.constantFrom(...targets.bindTargets) : fc.record({ hostname: fc.constant('compute-1'), rp: fc.uuid() });
  const patch = fc.oneof(
    { arbitrary: fc.tuple(target, fc.uuid()).map(([{ hostname, rp }, instance]) => [
      { op: 'add', path: '/hostname', value: hostname },
      { op: 'add', path: '/device_rp_uuid', value: rp },
      { op: 'add', path: '/instance_uuid', value: instance },
    ]), weight: 3 },
    { arbitrary: fc.constant([{ op: 'remove', path: '/hostname' }, { op: 'remove', path: '/device_rp_uuid' }, { op: 'remove', path: '/instance_uuid' }]), weight: 1 },
  );
  return fc.dictionary(arq, patch, { minKeys: 1, maxKeys: onePath ? 1 : 2 });
}

/** `/v2/accelerator_requests/{uuid}` with the request its one-request patch names; any other path as it is. */
function pathOfPatch(path: string, body: string | undefined): string {
  if (!path.endsWith('/{uuid}') || body === undefined) return path;
  return path.replace('{uuid}', Object.keys(JSON.parse(body) as object)[0] ?? 'none');
}

/** The template with each `{parameter}` replaced by a generated segment. */
const templated = (template: string, segment: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(...[...template.matchAll(/\{[^}]+\}/g)].map(() => segment)).map((values) => {
    let index = 0;
    return template.replace(/\{[^}]+\}/g, () => values[index++]);
  });

/** The template with each `{parameter}` replaced by a segment from the collection the path segment before it names. */
const templatedByCollection = (template: string, segmentIn: (collection: string) => fc.Arbitrary<string>): fc.Arbitrary<string> => {
  const parts = template.split('/');
  return fc
    .tuple(...parts.map((part, index) => (/^\{[^}]+\}$/.test(part) ? segmentIn(parts[index - 1] ?? '') : fc.constant(part))))
    .map((segments) => segments.join('/'));
};

/** A request with something hostile in it: any path segment, garbage query and headers, bad microversions, mutated and hostile bodies. */
function hostileRequestArbitrary(operation: Operation, known: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const knownValue = fc.constantFrom(...known);
  const segment = fc.oneof(
    { arbitrary: knownValue.map(percentEncoded), weight: 6 },
    { arbitrary: fc.uuid(), weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(percentEncoded), weight: 2 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 1 },
  );
  const path = templated(operation.template, segment);

  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const queryValue = (parameter: Schema) =>
    fc.oneof(
      { arbitrary: schemaArbitrary(parameter.name === 'waitSeconds' ? { type: 'integer', minimum: 0, maximum: 1 } : parameter.schema ?? {}, operation.document).map(asQueryText), weight: 5 },
      { arbitrary: knownValue, weight: 3 },
      { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 2 },
    );
  const query = fc
    .tuple(
      fc.tuple(...queryParameters.map((parameter) => fc.option(queryValue(parameter), { freq: 2 }).map((value) => [parameter.name, value] as const))),
      fc.option(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { freq: 5 }),
      fc.option(fc.constantFrom('%ZZ', 'limit=1&limit=2', 'a[b]=1', '=', '&&', 'cursor=%C0'), { freq: 8 }),
    )
    .map(([declared, extra, raw]) => {
      const pairs = declared.filter(([name, value]) => value !== null || name === 'waitSeconds').map(([name, value]) => [name, value ?? '0']);
      if (extra) pairs.push(extra);
      const parts = pairs.map(([name, value]) => `${percentEncoded(name)}=${percentEncoded(value!)}`);
      if (raw) parts.push(raw);
      return parts.length ? `?${parts.join('&')}` : '';
    });

  const headers = fc
    .record(
      {
        version: operation.api === 'v2' ? fc.option(fc.constantFrom(...MICROVERSIONS), { freq: 4 }) : fc.constant(null),
        minPosition: operation.parameters.some((parameter) => parameter.name === 'x-ledger-min-position') ? fc.option(fc.constantFrom(...MIN_POSITIONS), { freq: 2 }) : fc.constant(null),
        agentBoot: operation.parameters.some((parameter) => parameter.name === 'x-agent-boot') ? fc.option(fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })), { freq: 2 }) : fc.constant(null),
        correlation: fc.option(fc.constantFrom('not-a-uuid', '', 'x'.repeat(500), '00000000-0000-0000-0000-000000000000'), { freq: 10 }),
        contentType: fc.oneof({ arbitrary: fc.constant('application/json'), weight: 8 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES, ''), weight: 1 }),
      },
    )
    .map(({ version, minPosition, agentBoot, correlation, contentType }) => {
      const result: Record<string, string> = {};
      if (version !== null) result['openstack-api-version'] = version;
      if (minPosition !== null) result['x-ledger-min-position'] = minPosition;
      if (agentBoot !== null) result['x-agent-boot'] = agentBoot;
      if (correlation !== null) result['x-correlation-id'] = correlation;
      if (contentType) result['content-type'] = contentType;
      return result;
    });

  const isPatch = operation.method === 'PATCH' && operation.template.startsWith('/v2/accelerator_requests');
  const schemaBody = operation.bodySchema ? schemaArbitrary(operation.bodySchema, operation.document) : hostileValue;
  const shapedBody = fc.tuple(schemaBody, fc.constantFrom('as-is', 'as-is', 'as-is', 'extra-member', 'drop-member', 'wrap')).map(([value, mutation]) => JSON.stringify(mutate(value, mutation)));
  const body: fc.Arbitrary<string | undefined> = operation.bodySchema
    ? fc.oneof(
        { arbitrary: shapedBody, weight: 7 },
        { arbitrary: isPatch ? patchArbitrary(knownValue).map((patch) => JSON.stringify(patch)) : shapedBody, weight: isPatch ? 4 : 1 },
        { arbitrary: hostileBody, weight: 2 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      )
    : fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary: hostileBody, weight: 1 }, { arbitrary: shapedBody, weight: 1 });

  return fc.record({ path, query, headers, body, principal }).map(({ path, query, headers, body, principal }) => ({
    operation: `${operation.method} ${operation.template}`,
    method: operation.method,
    path: `${path}${query}`,
    headers: body === undefined ? withoutContentType(headers) : headers,
    body,
    principal,
  }));
}

/** Percent-encoded UTF-8; a lone surrogate (which encodeURIComponent refuses) goes as U+FFFD, as a client's encoder sends it. */
const percentEncoded = (text: string): string => encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));

/** A generated value as query text: strings as they are, anything else as its JSON. */
const asQueryText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));

/** A valid-looking body, made wrong in one way a validator must catch. */
function mutate(value: unknown, mutation: string): unknown {
  if (mutation === 'wrap') return [value];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...(value as object) };
  if (mutation === 'extra-member') copy[`unexpected_${Object.keys(copy).length}`] = 'x';
  if (mutation === 'drop-member') delete copy[Object.keys(copy)[0]];
  return copy;
}

const withoutContentType = (headers: Record<string, string>): Record<string, string> => {
  const { ['content-type']: _dropped, ...rest } = headers;
  return rest;
};

/** A request as one line a person can replay: method, path and headers in full, the body cut at 300 characters. */
export const describeRequest = (request: FuzzRequest): string =>
  `${request.method} ${request.path.length > 300 ? `${request.path.slice(0, 300)}…(${request.path.length} chars)` : request.path} as ${request.principal} ` +
  `headers ${JSON.stringify(request.headers).slice(0, 300)} body ${request.body === undefined ? 'none' : `${JSON.stringify(request.body.slice(0, 300))}${request.body.length > 300 ? `…(${request.body.length} chars)` : ''}`}`;
