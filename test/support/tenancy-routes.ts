/**
 * How the tenancy property (test/e2e/tenancy-properties.e2e-spec.ts)
 * reaches every operation of both OpenAPI documents. Keys are
 * `METHOD /path/{param}` exactly as the documents name them; the property
 * fails on an operation this table lacks, so a new route is classified
 * before it ships.
 */

/** The tenant roles a project's caller may hold: every call the property makes is by one of them. */
export const TENANT_ROLES = ['reader', 'member', 'manager', 'nova'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

/** What the ledger holds for the property to aim calls at: shared inventory and the operator's objects, none of them a project's. */
export interface TenancyFixture {
  readonly host: string;
  readonly device: string;
  readonly deployable: string;
  readonly profile: { readonly uuid: string; readonly name: string };
  readonly bitstream: string;
  readonly signingKey: string;
  readonly attribute: string;
  readonly job: string;
  readonly reactor: string;
}

export interface RouteCall {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** An id of the other project the call names on purpose (it may come back in the answer). */
  readonly sent?: string;
}

/**
 * `scoped`: the route serves a project's own data (its accelerator requests,
 * its quota); the property's own calls create, read, bind and delete with
 * it, and aim it at the other project's objects, which must be answered as
 * missing ones. `call`: one request by any tenant role, whose answer (data,
 * refusal or not-found) must carry nothing of another project.
 */
export type RouteCoverage =
  | { readonly kind: 'scoped'; readonly calls: readonly string[] }
  | { readonly kind: 'call'; readonly call: (fixture: TenancyFixture, otherProject: string) => RouteCall };

const get = (path: string, headers?: Record<string, string>) => (): RouteCall => ({ method: 'GET', path, headers });
const at = (method: string, path: (fixture: TenancyFixture) => string, body?: unknown) => (fixture: TenancyFixture): RouteCall => ({ method, path: path(fixture), body });
const REPORT = { devices: [] };
/** A period that is over (a usage report refuses one that is not), ending just before the call. */
const untilNow = () => new Date(Date.now() - 1).toISOString();
const MICROVERSION_2_2 = { 'openstack-api-version': 'accelerator 2.2' };
const GRAPHQL_OWN_DATA = '{ acceleratorRequests { edges { node { uuid projectId instanceUuid } } } quota { project usage } }';
const GRAPHQL_THROUGH_DEVICES =
  '{ devices(first: 20) { edges { node { acceleratorRequests(first: 20) { edges { node { uuid projectId instanceUuid } } } deployables(first: 5) { edges { node { attachHandles { claimedBy } } } } } } } }';

export const TENANCY_ROUTES: Readonly<Record<string, RouteCoverage>> = {
  'GET /': { kind: 'call', call: get('/') },
  'GET /v2': { kind: 'call', call: get('/v2') },
  'GET /healthz': { kind: 'call', call: get('/healthz') },
  'GET /readyz': { kind: 'call', call: get('/readyz') },
  'GET /api/v1/openapi.json': { kind: 'call', call: get('/api/v1/openapi.json') },
  // Quota usage per project is among the metrics: the operator's (admin) only.
  'GET /metrics': { kind: 'call', call: get('/metrics') },
  'GET /v2/openapi.json': { kind: 'call', call: get('/v2/openapi.json') },
  // GraphQL reads the same data: a project's requests and quota at the top, and another project's requests through the inventory's nesting.
  'POST /graphql': { kind: 'call', call: at('POST', () => '/graphql', { query: GRAPHQL_OWN_DATA }) },
  'GET /graphql': { kind: 'call', call: at('GET', () => `/graphql?query=${encodeURIComponent(GRAPHQL_THROUGH_DEVICES)}`) },

  'GET /v2/accelerator_requests': { kind: 'scoped', calls: ['list', 'listByOtherInstance'] },
  'POST /v2/accelerator_requests': { kind: 'scoped', calls: ['create'] },
  'PATCH /v2/accelerator_requests': { kind: 'scoped', calls: ['bindOwn', 'bindToOtherInstance', 'bindOther'] },
  'DELETE /v2/accelerator_requests': { kind: 'scoped', calls: ['deleteOwn', 'deleteOther', 'deleteByOtherInstance'] },
  'GET /v2/accelerator_requests/{uuid}': { kind: 'scoped', calls: ['showOther'] },
  'PATCH /v2/accelerator_requests/{uuid}': { kind: 'scoped', calls: ['bindOther'] },
  'DELETE /v2/accelerator_requests/{uuid}': { kind: 'scoped', calls: ['deleteOther'] },
  'GET /api/v1/quotas/{project}': { kind: 'scoped', calls: ['readQuotaOfOther'] },
  'PUT /api/v1/quotas/{project}': {
    kind: 'call',
    call: (_, other) => ({ method: 'PUT', path: `/api/v1/quotas/${other}`, body: { limits: { FPGA: 0 } }, sent: other }),
  },

  'GET /v2/device_profiles': { kind: 'call', call: get('/v2/device_profiles') },
  'POST /v2/device_profiles': { kind: 'call', call: at('POST', () => '/v2/device_profiles', [{ name: 'tenant-made', groups: [{ 'resources:FPGA': '1' }] }]) },
  'DELETE /v2/device_profiles': { kind: 'call', call: at('DELETE', (f) => `/v2/device_profiles?value=${f.profile.name}`) },
  'GET /v2/device_profiles/{uuid_or_name}': { kind: 'call', call: (f) => ({ method: 'GET', path: `/v2/device_profiles/${f.profile.name}`, headers: MICROVERSION_2_2 }) },
  'DELETE /v2/device_profiles/{uuid_or_name}': { kind: 'call', call: at('DELETE', (f) => `/v2/device_profiles/${f.profile.uuid}`) },

  'GET /v2/devices': { kind: 'call', call: get('/v2/devices') },
  'GET /v2/devices/{uuid}': { kind: 'call', call: at('GET', (f) => `/v2/devices/${f.device}`) },
  'POST /v2/devices/{uuid}/disable': { kind: 'call', call: at('POST', (f) => `/v2/devices/${f.device}/disable`) },
  'POST /v2/devices/{uuid}/enable': { kind: 'call', call: at('POST', (f) => `/v2/devices/${f.device}/enable`) },
  'GET /v2/deployables': { kind: 'call', call: get('/v2/deployables') },
  'GET /v2/deployables/{uuid}': { kind: 'call', call: at('GET', (f) => `/v2/deployables/${f.deployable}`) },
  'PATCH /v2/deployables/{uuid}/program': {
    kind: 'call',
    call: at('PATCH', (f) => `/v2/deployables/${f.deployable}/program`, [{ op: 'replace', path: '/bitstream_id', value: '00000000-0000-4000-8000-000000000000' }]),
  },
  'GET /v2/attributes': { kind: 'call', call: get('/v2/attributes') },
  'POST /v2/attributes': { kind: 'call', call: at('POST', () => '/v2/attributes', { deployable_id: 1, key: 'tenant', value: 'made' }) },
  'GET /v2/attributes/{uuid}': { kind: 'call', call: at('GET', (f) => `/v2/attributes/${f.attribute}`) },
  'DELETE /v2/attributes/{uuid}': { kind: 'call', call: at('DELETE', (f) => `/v2/attributes/${f.attribute}`) },

  'PUT /api/v1/hosts/{hostname}/report': { kind: 'call', call: at('PUT', (f) => `/api/v1/hosts/${f.host}/report`, REPORT) },
  'POST /api/v1/hosts/{hostname}/heartbeat': { kind: 'call', call: at('POST', (f) => `/api/v1/hosts/${f.host}/heartbeat`, { agentVersion: '0', intervalSeconds: 60, devices: [] }) },
  'GET /api/v1/hosts': { kind: 'call', call: get('/api/v1/hosts') },
  'GET /api/v1/hosts/{hostname}': { kind: 'call', call: at('GET', (f) => `/api/v1/hosts/${f.host}`) },
  'GET /api/v1/hosts/{hostname}/telemetry': { kind: 'call', call: at('GET', (f) => `/api/v1/hosts/${f.host}/telemetry`) },
  'GET /api/v1/hosts/{hostname}/telemetry/history': { kind: 'call', call: at('GET', (f) => `/api/v1/hosts/${f.host}/telemetry/history`) },
  'GET /api/v1/hosts/{hostname}/placement': { kind: 'call', call: at('GET', (f) => `/api/v1/hosts/${f.host}/placement`) },
  'GET /api/v1/hosts/{hostname}/drivers': { kind: 'call', call: at('GET', (f) => `/api/v1/hosts/${f.host}/drivers`) },
  'POST /api/v1/hosts/{hostname}/jobs': { kind: 'call', call: at('POST', (f) => `/api/v1/hosts/${f.host}/jobs`, { kind: 'discover', params: {} }) },
  'POST /api/v1/hosts/{hostname}/provision': { kind: 'call', call: (f) => ({ method: 'POST', path: `/api/v1/hosts/${f.host}/provision`, body: { shell: f.bitstream, vfs: 1 } }) },
  'POST /api/v1/hosts/{hostname}/fence': { kind: 'call', call: at('POST', (f) => `/api/v1/hosts/${f.host}/fence`, { reason: 'tenancy property' }) },
  'POST /api/v1/hosts/{hostname}/unfence': { kind: 'call', call: at('POST', (f) => `/api/v1/hosts/${f.host}/unfence`) },
  'GET /api/v1/hosts/{hostname}/jobs/next': { kind: 'call', call: at('GET', (f) => `/api/v1/hosts/${f.host}/jobs/next?waitSeconds=0`) },
  'GET /api/v1/devices': { kind: 'call', call: get('/api/v1/devices') },
  'GET /api/v1/devices/{uuid}': { kind: 'call', call: at('GET', (f) => `/api/v1/devices/${f.device}`) },
  'POST /api/v1/devices/{uuid}/disable': { kind: 'call', call: at('POST', (f) => `/api/v1/devices/${f.device}/disable`, {}) },
  'POST /api/v1/devices/{uuid}/enable': { kind: 'call', call: at('POST', (f) => `/api/v1/devices/${f.device}/enable`) },
  'POST /api/v1/devices/{uuid}/clean/retry': { kind: 'call', call: at('POST', (f) => `/api/v1/devices/${f.device}/clean/retry`) },
  'POST /api/v1/devices/{uuid}/clean/release': { kind: 'call', call: at('POST', (f) => `/api/v1/devices/${f.device}/clean/release`, {}) },
  'POST /api/v1/devices/{uuid}/health/clear': { kind: 'call', call: at('POST', (f) => `/api/v1/devices/${f.device}/health/clear`, { note: 'tenancy property' }) },
  'GET /api/v1/devices/{uuid}/provenance': { kind: 'call', call: at('GET', (f) => `/api/v1/devices/${f.device}/provenance`) },
  'GET /api/v1/devices/{uuid}/tenancy': { kind: 'call', call: at('GET', (f) => `/api/v1/devices/${f.device}/tenancy`) },
  'GET /api/v1/devices/{uuid}/timeline': { kind: 'call', call: at('GET', (f) => `/api/v1/devices/${f.device}/timeline`) },
  'GET /api/v1/devices/{uuid}/telemetry/history': { kind: 'call', call: at('GET', (f) => `/api/v1/devices/${f.device}/telemetry/history`) },
  // Hosts found by a request's project, instance or uuid: a manager's search reaches their own project's requests only.
  'GET /api/v1/fleet': { kind: 'call', call: (_, other) => ({ method: 'GET', path: `/api/v1/fleet?search=${other}`, sent: other }) },
  'GET /api/v1/quotas': { kind: 'call', call: get('/api/v1/quotas') },
  // The whole log's chain: the operator's (admin), nothing a tenant reads.
  'GET /api/v1/audit/verify': { kind: 'call', call: get('/api/v1/audit/verify') },
  // Usage and health beside tenancy up to now, over every project's holdings so far: a tenant's answer holds its own project's rows only.
  'GET /api/v1/usage': { kind: 'call', call: () => ({ method: 'GET', path: `/api/v1/usage?from=2000-01-01T00:00:00Z&to=${untilNow()}&groupBy=device` }) },
  'GET /api/v1/audit/health-holders': { kind: 'call', call: () => ({ method: 'GET', path: `/api/v1/audit/health-holders?from=2000-01-01T00:00:00Z&to=${untilNow()}` }) },
  'GET /api/v1/deployables': { kind: 'call', call: get('/api/v1/deployables') },
  'GET /api/v1/deployables/{uuid}': { kind: 'call', call: at('GET', (f) => `/api/v1/deployables/${f.deployable}`) },
  'GET /api/v1/placement': { kind: 'call', call: get('/api/v1/placement') },

  'GET /api/v1/jobs': { kind: 'call', call: get('/api/v1/jobs') },
  'GET /api/v1/jobs/{jobId}': { kind: 'call', call: at('GET', (f) => `/api/v1/jobs/${f.job}`) },
  'POST /api/v1/jobs/{jobId}/result': { kind: 'call', call: at('POST', (f) => `/api/v1/jobs/${f.job}/result`, { outcome: 'completed', evidence: {} }) },

  'POST /api/v1/bitstreams': { kind: 'call', call: at('POST', () => '/api/v1/bitstreams', { content: 'AA==', functionId: '9f'.repeat(16), interfaceId: 'shell' }) },
  'GET /api/v1/bitstreams': { kind: 'call', call: get('/api/v1/bitstreams') },
  'GET /api/v1/bitstreams/{id}': { kind: 'call', call: at('GET', (f) => `/api/v1/bitstreams/${f.bitstream}`) },
  'GET /api/v1/bitstreams/{id}/content': { kind: 'call', call: at('GET', (f) => `/api/v1/bitstreams/${f.bitstream}/content`) },
  'POST /api/v1/bitstreams/{id}/retire': { kind: 'call', call: at('POST', (f) => `/api/v1/bitstreams/${f.bitstream}/retire`, {}) },
  'POST /api/v1/signing-keys': { kind: 'call', call: at('POST', () => '/api/v1/signing-keys', { publicKeyPem: 'not a key' }) },
  'GET /api/v1/signing-keys': { kind: 'call', call: get('/api/v1/signing-keys') },
  'POST /api/v1/signing-keys/{keyId}/revoke': { kind: 'call', call: at('POST', (f) => `/api/v1/signing-keys/${f.signingKey}/revoke`, {}) },

  'GET /api/v1/reactors': { kind: 'call', call: get('/api/v1/reactors') },
  'GET /api/v1/reactors/{name}/parked': { kind: 'call', call: at('GET', (f) => `/api/v1/reactors/${f.reactor}/parked`) },
  'POST /api/v1/reactors/{name}/parked/{position}/retry': { kind: 'call', call: at('POST', (f) => `/api/v1/reactors/${f.reactor}/parked/1/retry`) },

  // Bind workflows carry requests' ids: the whole surface is the operator's (admin), like the reactors.
  'GET /api/v1/workflows': { kind: 'call', call: get('/api/v1/workflows?name=bind') },
  'GET /api/v1/workflows/runtime': { kind: 'call', call: get('/api/v1/workflows/runtime') },
  'GET /api/v1/workflows/{name}/{id}': { kind: 'call', call: get('/api/v1/workflows/bind/01a21111-0000-7000-8000-000000000000') },
  'POST /api/v1/workflows/{name}/{id}/cancel': { kind: 'call', call: at('POST', () => '/api/v1/workflows/bind/01a21111-0000-7000-8000-000000000000/cancel', { reason: 'tenancy' }) },
  'POST /api/v1/workflows/{name}/{id}/retry': { kind: 'call', call: at('POST', () => '/api/v1/workflows/bind/01a21111-0000-7000-8000-000000000000/retry', {}) },
};

/** The routes the property sends as plain calls, in a stable order for `pick`. */
export const CALLED_ROUTES = Object.entries(TENANCY_ROUTES).flatMap(([route, coverage]) => (coverage.kind === 'call' ? [{ route, call: coverage.call }] : []));
