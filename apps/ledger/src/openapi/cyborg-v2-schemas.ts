/**
 * The shapes of Cyborg's v2 API as the ledger serves them (docs/cyborg-v2.md,
 * field for field in Cyborg's order), in OpenAPI 3.1 / JSON Schema 2020-12.
 */
const uuid = { type: 'string', format: 'uuid' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const time = { type: 'string', description: 'ISO 8601 with offset, e.g. 2026-11-22T01:18:15+00:00', example: '2026-11-22T01:18:15+00:00' } as const;
const nullableTime = { ...time, type: ['string', 'null'] } as const;
const links = {
  type: 'array',
  items: { type: 'object', required: ['href', 'rel'], properties: { href: { type: 'string' }, rel: { type: 'string', enum: ['self', 'bookmark'] } } },
} as const;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const DeviceProfileGroup = {
  type: 'object',
  description:
    '`resources:<RC>` (FPGA, GPU, VGPU, PGPU or CUSTOM_*) → amount 1–64 as a string; `trait:CUSTOM_*` → `required` or `forbidden`; `accel:<key>` → a string. Keys and values at most 255 characters.',
  propertyNames: { pattern: '^(resources|trait|accel):' },
  additionalProperties: { type: 'string', maxLength: 255 },
  example: { 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' },
} as const;

const DeviceProfile = {
  type: 'object',
  required: ['uuid', 'name', 'description', 'groups', 'created_at', 'updated_at', 'links'],
  additionalProperties: false,
  properties: {
    uuid,
    name: { type: 'string', pattern: '^[a-zA-Z0-9-_]+$', maxLength: 255 },
    description: { ...nullableString, maxLength: 255 },
    groups: { type: 'array', minItems: 1, maxItems: 16, items: ref('DeviceProfileGroup') },
    created_at: time,
    updated_at: { ...nullableTime, description: 'always null: a profile never changes' },
    links,
  },
} as const;

const DeviceProfileNew = {
  type: 'object',
  required: ['name', 'groups'],
  additionalProperties: false,
  properties: {
    name: DeviceProfile.properties.name,
    groups: DeviceProfile.properties.groups,
    description: DeviceProfile.properties.description,
    uuid: { ...uuid, description: 'chosen by the admin; else the ledger picks one' },
  },
} as const;

const AcceleratorRequest = {
  type: 'object',
  required: [
    'uuid', 'state', 'device_profile_name', 'device_profile_group_id', 'hostname', 'device_rp_uuid', 'instance_uuid',
    'project_id', 'attach_handle_type', 'attach_handle_info', 'links', 'created_at', 'updated_at',
  ],
  additionalProperties: false,
  properties: {
    uuid,
    state: { type: 'string', enum: ['Initial', 'BindStarted', 'Bound', 'BindFailed', 'Unbound'] },
    device_profile_name: { type: 'string' },
    device_profile_group_id: { type: 'integer', minimum: 0 },
    hostname: nullableString,
    device_rp_uuid: nullableString,
    instance_uuid: nullableString,
    project_id: nullableString,
    attach_handle_type: { type: 'string', enum: ['', 'PCI', 'MDEV'], description: 'empty until Bound' },
    attach_handle_info: {
      type: 'object',
      description: 'empty until Bound; PCI: domain, bus, device, function (physical_network for NIC VFs); MDEV: asked_type, vgpu_mark',
      additionalProperties: { type: 'string' },
    },
    links,
    created_at: time,
    updated_at: nullableTime,
  },
} as const;

const AcceleratorRequestNew = {
  type: 'object',
  required: ['device_profile_name'],
  additionalProperties: false,
  properties: {
    device_profile_name: { type: 'string', pattern: '^[a-zA-Z0-9-_]+$', maxLength: 255 },
    device_profile_group_id: {
      type: ['string', 'integer', 'null'],
      description: "only this group's resources (the client sends the index as a string)",
      pattern: '^\\d{1,3}$',
    },
    image_uuid: { ...uuid, type: ['string', 'null'], description: 'accepted, not used' },
  },
} as const;

const BindPatch = {
  type: 'object',
  description:
    'Request uuid → a JSON patch: every op `add` (bind: `/hostname`, `/device_rp_uuid`, `/instance_uuid`, and `/project_id` from 2.1 for admins) or every op `remove` (unbind).',
  propertyNames: { format: 'uuid' },
  additionalProperties: {
    type: 'array',
    minItems: 1,
    items: {
      type: 'object',
      required: ['op', 'path'],
      additionalProperties: false,
      properties: {
        op: { type: 'string', enum: ['add', 'remove'] },
        path: { type: 'string', enum: ['/hostname', '/device_rp_uuid', '/instance_uuid', '/project_id'] },
        value: { type: 'string' },
      },
    },
  },
  example: {
    'e0befd82-41f9-4c4b-b9ed-527613ff1702': [
      { op: 'add', path: '/hostname', value: 'compute-1' },
      { op: 'add', path: '/device_rp_uuid', value: '823f5e9e-ef5b-3461-bd09-8006cc3755d1' },
      { op: 'add', path: '/instance_uuid', value: '11111111-2222-4333-8444-555555555555' },
    ],
  },
} as const;

const Device = {
  type: 'object',
  required: ['uuid', 'type', 'vendor', 'model', 'std_board_info', 'vendor_board_info', 'hostname', 'links', 'created_at', 'updated_at'],
  additionalProperties: false,
  properties: {
    uuid,
    type: { type: 'string', example: 'GPU' },
    vendor: { type: 'string', description: 'PCI vendor id, lower-case hex without 0x', example: '10de' },
    model: { type: 'string' },
    std_board_info: { type: 'string', description: 'the reported board info, as a JSON string' },
    vendor_board_info: nullableString,
    hostname: { type: 'string' },
    status: { type: 'string', enum: ['enabled', 'maintaining'], description: 'from microversion 2.3 (always on disable and enable)' },
    links,
    created_at: time,
    updated_at: nullableTime,
  },
} as const;

const Deployable = {
  type: 'object',
  required: [
    'uuid', 'parent_id', 'root_id', 'name', 'num_accelerators', 'device_id', 'attributes_list', 'rp_uuid', 'driver_name',
    'bitstream_id', 'links', 'created_at', 'updated_at',
  ],
  additionalProperties: false,
  properties: {
    uuid,
    parent_id: { type: 'null' },
    root_id: { type: 'null' },
    name: { type: 'string' },
    num_accelerators: { type: 'integer', minimum: 0 },
    device_id: { type: 'integer', description: "derived from the device's uuid" },
    attributes_list: {
      type: 'array',
      description: 'one-key objects: `rc`, `trait0…N`, then operator attributes (a real list, not Cyborg\'s string)',
      items: { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: { type: 'string' } },
    },
    rp_uuid: nullableString,
    driver_name: nullableString,
    bitstream_id: nullableString,
    links,
    created_at: time,
    updated_at: nullableTime,
  },
} as const;

const Attribute = {
  type: 'object',
  required: ['uuid', 'deployable_id', 'key', 'value', 'links', 'created_at', 'updated_at'],
  additionalProperties: false,
  properties: {
    uuid,
    deployable_id: { type: 'integer' },
    key: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,255}$' },
    value: { type: 'string', maxLength: 255 },
    links,
    created_at: time,
    updated_at: nullableTime,
  },
} as const;

const AttributeNew = {
  type: 'object',
  required: ['deployable_id', 'key', 'value'],
  additionalProperties: false,
  properties: { deployable_id: { type: 'integer' }, key: Attribute.properties.key, value: Attribute.properties.value },
} as const;

const ProgramPatch = {
  type: 'array',
  minItems: 1,
  maxItems: 1,
  items: {
    type: 'object',
    required: ['op', 'path', 'value'],
    additionalProperties: false,
    properties: {
      op: { const: 'replace' },
      path: { const: '/program' },
      value: {
        type: 'array',
        minItems: 1,
        items: { type: 'object', required: ['image_uuid'], additionalProperties: false, properties: { image_uuid: uuid } },
      },
    },
  },
} as const;

const Version = {
  type: 'object',
  required: ['id', 'status', 'min_version', 'max_version', 'links'],
  properties: {
    id: { type: 'string', enum: ['v2', 'v2.0'] },
    status: { const: 'CURRENT' },
    min_version: { type: 'string', example: '2.0' },
    max_version: { type: 'string', example: '2.3' },
    links,
  },
} as const;

const Versions = {
  type: 'object',
  required: ['name', 'description', 'versions', 'default_version'],
  properties: { name: { type: 'string' }, description: { type: 'string' }, versions: { type: 'array', items: ref('Version') }, default_version: ref('Version') },
} as const;

const CyborgError = {
  type: 'object',
  required: ['error_message'],
  description: "Cyborg's error body, without Cyborg's JSON inside the string; `message` repeats it for openstacksdk. The stable code is in `X-Error-Code` (docs/errors.md).",
  properties: { error_message: { type: 'string' }, message: { type: 'string' } },
} as const;

export const CYBORG_V2_SCHEMAS = {
  DeviceProfileGroup,
  DeviceProfile,
  DeviceProfileNew,
  AcceleratorRequest,
  AcceleratorRequestNew,
  BindPatch,
  Device,
  Deployable,
  Attribute,
  AttributeNew,
  ProgramPatch,
  Version,
  Versions,
  CyborgError,
};
