import type { CyborgApiRule } from '@ledger/auth';

/** Every route of Cyborg's v2 API as the ledger serves it (docs/cyborg-v2.md), for the v2 OpenAPI document. */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const ok = (description: string, schema?: object) => (schema ? { description, ...json(schema) } : { description });
const list = (member: string, item: string) => ({ type: 'object', required: [member], properties: { [member]: { type: 'array', items: ref(item) } } });
const query = (name: string, description: string, schema: object = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });
/** The ledger's extension (docs/audit.md): the requests as they were at a point of the log. */
const AS_OF = query('asOf', 'a global position or an ISO-8601 time: the requests as they were then (a rebuild; `X-Ledger-As-Of-Position` says which position). Not in Cyborg');
const path = (name: string, description = 'a uuid') => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const body = (schema: object, description?: string) => ({ required: true, ...(description ? { description } : {}), ...json(schema) });

interface Operation {
  readonly summary: string;
  /** The policy rule that guards it (docs/policy.md). */
  readonly rule: CyborgApiRule;
  /** Who passes the rule's default. */
  readonly roles: string;
  /** The lowest microversion the operation (as described) needs; 2.0 when absent. */
  readonly since?: string;
  readonly notes?: string;
  readonly parameters?: object[];
  readonly requestBody?: object;
  readonly responses: Record<string, object>;
}

/** An operation with the request header, the tag, the policy rule and the microversion it needs spelled out. */
function operation(tag: string, { summary, rule, roles, since, notes, parameters = [], requestBody, responses }: Operation) {
  const version = since ? `Needs microversion ${since} or later (\`OpenStack-API-Version: accelerator ${since}\`).` : 'Every microversion (2.0–2.3).';
  return {
    tags: [tag],
    summary,
    description: [`Policy rule \`${rule}\` (docs/policy.md); by default: ${roles}.`, version, notes].filter(Boolean).join(' '),
    'x-openstack-min-microversion': since ?? '2.0',
    parameters: [{ $ref: '#/components/parameters/OpenStackApiVersion' }, ...parameters],
    ...(requestBody ? { requestBody } : {}),
    responses: { ...responses, default: { $ref: '#/components/responses/CyborgError' } },
  };
}

const PROFILES = 'device profiles';
const ARQS = 'accelerator requests';
const HARDWARE = 'devices, deployables, attributes';
const VERSIONS = 'versions';

/** Cyborg's `filters` on hardware lists: how many, and in which order. */
const ordering = (sortKeys: string) => [
  query('limit', 'a positive integer', { type: 'integer', minimum: 1 }),
  query('sort_key', sortKeys),
  query('sort_dir', 'asc or desc', { enum: ['asc', 'desc'] }),
];

/** Disable and enable: Cyborg added them with 2.3; the ledger serves them at every microversion and answers the device with its `status`. */
const maintenance = (summary: string, rule: CyborgApiRule) => ({
  post: operation(HARDWARE, { summary, rule, roles: 'admin', notes: 'Cyborg added it with 2.3; the ledger serves it at every microversion and answers the device with its `status`.', parameters: [path('uuid')], responses: { '200': ok('The device', ref('Device')) } }),
});

const versionsRoot = {
  tags: [VERSIONS],
  summary: 'The API versions (no token)',
  description: 'What every client reads first. Cyborg answers the same without a token.',
  security: [],
  responses: { '200': ok('The versions', ref('Versions')) },
};

export const CYBORG_V2_PATHS = {
  '/': { get: versionsRoot },
  '/v2': {
    get: { ...versionsRoot, summary: 'The v2 version: its microversion range (no token)', responses: { '200': ok('The v2 version', ref('Version')) } },
  },
  '/v2/openapi.json': {
    get: { tags: [VERSIONS], summary: 'This document (no token)', security: [], responses: { '200': ok('OpenAPI 3.1', { type: 'object' }) } },
  },
  '/v2/device_profiles': {
    get: operation(PROFILES, {
      summary: 'List device profiles, oldest first',
      rule: 'cyborg:device_profile:get_all',
      roles: 'reader (profiles are global)',
      parameters: [query('name', 'only these names, comma-separated')],
      responses: { '200': ok('The profiles', list('device_profiles', 'DeviceProfile')) },
    }),
    post: operation(PROFILES, {
      summary: 'Create a device profile',
      rule: 'cyborg:device_profile:create',
      roles: 'admin',
      notes: 'The body is a list of exactly one profile (as Cyborg and its client send) or that profile alone.',
      requestBody: body({ oneOf: [{ type: 'array', minItems: 1, maxItems: 1, items: ref('DeviceProfileNew') }, ref('DeviceProfileNew')] }),
      responses: { '201': ok('The profile', ref('DeviceProfile')) },
    }),
    delete: operation(PROFILES, {
      summary: 'Delete device profiles by name, all or nothing',
      rule: 'cyborg:device_profile:delete',
      roles: 'admin',
      parameters: [{ ...query('value', 'names, comma-separated'), required: true }],
      responses: { '204': ok('Deleted') },
    }),
  },
  '/v2/device_profiles/{uuid_or_name}': {
    get: operation(PROFILES, {
      summary: 'Show a device profile by uuid, or by name',
      rule: 'cyborg:device_profile:get_one',
      roles: 'reader',
      notes: 'By uuid at every microversion; by name from 2.2 (below 2.2 a name is 406, as in Cyborg).',
      parameters: [path('uuid_or_name', 'a uuid, or (from 2.2) a name')],
      responses: { '200': ok('The profile, `name, description, uuid` first', { type: 'object', required: ['device_profile'], properties: { device_profile: ref('DeviceProfile') } }) },
    }),
    delete: operation(PROFILES, {
      summary: 'Delete a device profile by uuid, or by name(s)',
      rule: 'cyborg:device_profile:delete',
      roles: 'admin',
      notes: 'A value that is not a uuid is read as comma-separated names, as Cyborg does. A profile still in use is 409.',
      parameters: [path('uuid_or_name', 'a uuid, or names')],
      responses: { '204': ok('Deleted') },
    }),
  },
  '/v2/accelerator_requests': {
    get: operation(ARQS, {
      summary: "List the caller's project's accelerator requests",
      rule: 'cyborg:arq:get_all',
      roles: 'reader (admins see every project)',
      parameters: [query('instance', 'only those bound to this instance uuid'), query('bind_state', 'with `instance`: only when every bind is resolved', { const: 'resolved' }), AS_OF],
      responses: {
        '200': ok('The requests', list('arqs', 'AcceleratorRequest')),
        '423': ok('`bind_state=resolved` while some binds of the instance still run: no body, `X-Error-Code: ARQ.NOT_RESOLVED`'),
      },
    }),
    post: operation(ARQS, {
      summary: "Create a profile's accelerator requests: one per unit of every resource of its groups",
      rule: 'cyborg:arq:create',
      roles: 'member or service, with a project-scoped token',
      requestBody: body(ref('AcceleratorRequestNew')),
      responses: { '201': ok('The requests', list('arqs', 'AcceleratorRequest')) },
    }),
    patch: operation(ARQS, {
      summary: 'Bind or unbind accelerator requests',
      rule: 'cyborg:arq:update',
      roles: 'service (a token with the role, or an X-Service-Token); the service role is required whatever the policy says',
      notes: '`/project_id` in a bind patch needs 2.1 and an admin. A bind that finds no free attach handle is 409 `ARQ.BIND_FAILED`.',
      requestBody: body(ref('BindPatch')),
      responses: { '202': ok('Accepted: binds and unbinds are recorded; Nova hears `accelerator-request-bound`') },
    }),
    delete: operation(ARQS, {
      summary: 'Delete accelerator requests by uuid (all or nothing), or every request of an instance',
      rule: 'cyborg:arq:delete',
      roles: 'member or service; a Bound request, or `instance=`, needs service whatever the policy says',
      parameters: [query('arqs', 'request uuids, comma-separated'), query('instance', 'an instance uuid (service only)')],
      responses: { '204': ok('Deleted') },
    }),
  },
  '/v2/accelerator_requests/{uuid}': {
    get: operation(ARQS, { summary: 'Show an accelerator request', rule: 'cyborg:arq:get_one', roles: 'reader', parameters: [path('uuid'), AS_OF], responses: { '200': ok('The request', ref('AcceleratorRequest')) } }),
    patch: operation(ARQS, {
      summary: 'Bind or unbind one accelerator request (what `openstack accelerator arq bind` sends)',
      rule: 'cyborg:arq:update',
      roles: 'service; the service role is required whatever the policy says',
      notes: 'The patch must name this request only.',
      parameters: [path('uuid')],
      requestBody: body(ref('BindPatch')),
      responses: { '202': ok('Accepted') },
    }),
    delete: operation(ARQS, { summary: 'Delete an accelerator request', rule: 'cyborg:arq:delete', roles: 'member or service; a Bound request needs service', parameters: [path('uuid')], responses: { '204': ok('Deleted') } }),
  },
  '/v2/devices': {
    get: operation(HARDWARE, {
      summary: 'List devices',
      rule: 'cyborg:device:get_all',
      roles: 'manager or admin',
      notes: '`status` appears in each device from 2.3.',
      parameters: [
        query('type', 'exact'),
        query('vendor', 'exact, with or without 0x, any case'),
        query('hostname', 'exact'),
        ...ordering('uuid, type, vendor, model, hostname, status, created_at, updated_at'),
      ],
      responses: { '200': ok('The devices', list('devices', 'Device')) },
    }),
  },
  '/v2/devices/{uuid}': {
    get: operation(HARDWARE, { summary: 'Show a device', rule: 'cyborg:device:get_one', roles: 'manager or admin', notes: '`status` from 2.3.', parameters: [path('uuid')], responses: { '200': ok('The device', ref('Device')) } }),
  },
  '/v2/devices/{uuid}/disable': maintenance('Take a device out of service (maintenance); idempotent', 'cyborg:device:disable'),
  '/v2/devices/{uuid}/enable': maintenance('Put a device back in service; idempotent', 'cyborg:device:enable'),
  '/v2/deployables': {
    get: operation(HARDWARE, {
      summary: 'List deployables',
      rule: 'cyborg:deployable:get_all',
      roles: 'manager or admin',
      parameters: [
        query('name', 'exact'),
        ...ordering('uuid, name, num_accelerators, rp_uuid, driver_name, created_at, updated_at'),
      ],
      responses: { '200': ok('The deployables', list('deployables', 'Deployable')) },
    }),
  },
  '/v2/deployables/{uuid}': {
    get: operation(HARDWARE, { summary: 'Show a deployable', rule: 'cyborg:deployable:get_one', roles: 'manager or admin', parameters: [path('uuid')], responses: { '200': ok('The deployable', ref('Deployable')) } }),
  },
  '/v2/deployables/{uuid}/program': {
    patch: operation(HARDWARE, {
      summary: "Program an FPGA deployable: a `program` job for the host's agent",
      rule: 'cyborg:deployable:program',
      roles: 'admin',
      notes: 'Answers 202 at once with `Location: /api/v1/jobs/<jobId>`, where the job can be followed.',
      parameters: [path('uuid')],
      requestBody: body(ref('ProgramPatch')),
      responses: { '202': { ...ok('The deployable; the job runs on the agent', ref('Deployable')), headers: { Location: { schema: { type: 'string' }, description: '/api/v1/jobs/<jobId>' } } } },
    }),
  },
  '/v2/attributes': {
    get: operation(HARDWARE, {
      summary: 'List attributes (discovered `rc`, `trait<N>`, and operators\')',
      rule: 'cyborg:attribute:get_all',
      roles: 'manager or admin',
      parameters: [query('deployable_id', "a deployable's integer id", { type: 'integer' }), query('key', 'exact')],
      responses: { '200': ok('The attributes', list('attributes', 'Attribute')) },
    }),
    post: operation(HARDWARE, {
      summary: "Set an operator's attribute on a deployable (one value per key)",
      rule: 'cyborg:attribute:create',
      roles: 'admin',
      requestBody: body(ref('AttributeNew')),
      responses: { '201': ok('The attribute', ref('Attribute')) },
    }),
  },
  '/v2/attributes/{uuid}': {
    get: operation(HARDWARE, { summary: 'Show an attribute', rule: 'cyborg:attribute:get_one', roles: 'manager or admin', parameters: [path('uuid')], responses: { '200': ok('The attribute', ref('Attribute')) } }),
    delete: operation(HARDWARE, { summary: "Delete an operator's attribute", rule: 'cyborg:attribute:delete', roles: 'admin', parameters: [path('uuid')], responses: { '204': ok('Deleted') } }),
  },
};
