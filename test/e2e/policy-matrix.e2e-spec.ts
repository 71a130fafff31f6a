import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { type CommandContext, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { attachHandleUuidOf, attributeUuidOf, DEVICE_COMMANDS, type DeviceCommand, deviceUuidOf, numericIdOf } from '@ledger/inventory';
import { ConflictError, SYSTEM_ACTOR } from '@ledger/kernel';
import { parkEvent, type SqlDatabase } from '@ledger/processing';
import { eventually, testEvent } from '@ledger/processing/testing';
import { defineStepWorkflow, type WorkflowRuntime } from '@ledger/workflows';
import type { LedgerWorkflows } from '../../apps/ledger/src/infrastructure/ledger-workflows';
import { READ_MODEL_DB, WORKFLOW_RUNTIME } from '../../apps/ledger/src/infrastructure/tokens';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';
import {
  AGENT_HOST,
  CALLERS,
  type Caller,
  credentialsOf,
  expectRefusal,
  forbidden,
  HIDDEN,
  labelOf,
  NO_TOKEN,
  OK,
  type Outcome,
  type Outcomes,
  PROJECT_A,
  PROJECT_B,
  projectOf,
  SERVICE_USER,
} from '../support/policy-matrix';

/**
 * Two workflows for the workflow routes' cells: `policy_hold` stays running
 * (its one step waits for an event that never comes), `policy_fail` ends
 * failed (its second step and the first one's undo are refused).
 */
const refuse = () => Promise.reject(new ConflictError('TEST.REFUSED', 'refused'));
const policyStart = (name: string) => [{ types: [`test.${name}`], starts: true, workflowId: (event: { data: unknown }) => (event.data as { id: string }).id }];
const POLICY_WORKFLOWS: LedgerWorkflows = {
  workflows: [
    defineStepWorkflow({
      name: 'policy_hold',
      routes: policyStart('policy_hold'),
      start: (input) => input.data,
      steps: [{ name: 'wait', do: () => ({ kind: 'command', command: { type: 'test.Ask', data: {} } }), doneWhen: () => undefined, timeoutMs: 3_600_000, retry: { maxAttempts: 1 } }],
    }),
    defineStepWorkflow({
      name: 'policy_fail',
      routes: policyStart('policy_fail'),
      start: (input) => input.data,
      steps: [
        { name: 'a', do: () => ({ kind: 'command', command: { type: 'test.Ask', data: {} } }), compensate: () => ({ kind: 'command', command: { type: 'test.Refused', data: {} } }), timeoutMs: 3_600_000, retry: { maxAttempts: 1 } },
        { name: 'b', do: () => ({ kind: 'command', command: { type: 'test.Refused', data: {} } }), timeoutMs: 3_600_000, retry: { maxAttempts: 1 } },
      ],
    }),
  ],
  commands: () => ({ 'test.Ask': async () => ({ asked: true }), 'test.Refused': refuse }),
};

/**
 * Legend: OK allowed (2xx); NF hidden (another project's: 404 or absent, never the data); NO 401; the rest 403 with this code:
 * DENY a v2 policy rule (Cyborg's defaults, docs/policy.md), ROLE the native API's roles or the service role v2 requires in code.
 */
const NF = HIDDEN;
const NO = NO_TOKEN;
const ROLE = forbidden('AUTH.ROLE_REQUIRED');
const DENY = forbidden('AUTH.POLICY_DENIED');
const HOST = forbidden('AUTH.WRONG_HOST');
const BOUND = forbidden('ARQ.SERVICE_ROLE_REQUIRED');
const QUOTA = forbidden('QUOTA.PROJECT_FORBIDDEN');

type Scope = '' | 'own' | 'other';

/**
 * The policy (CYBORG-V2.md §1.3, §6, docs/agent-protocol.md, and the native
 * API's). Scope: `own` is a target in the caller's project (the agent's host
 * for host routes, a job of the agent's host for job results), `other` one in
 * another project (another host, one that has reported). `nova` is a member's
 * token plus Nova's X-Service-Token; `service` is the service user alone.
 */
const POLICY: readonly (readonly [endpoint: string, scope: Scope, outcomes: Outcomes])[] = [
  // endpoint                                             scope     none  reader  member  manager  admin  service  nova   agent
  ['GET /',                                               '',      [OK,   OK,     OK,     OK,      OK,    OK,      OK,    OK]],
  ['GET /v2',                                             '',      [OK,   OK,     OK,     OK,      OK,    OK,      OK,    OK]],
  ['GET /healthz',                                        '',      [OK,   OK,     OK,     OK,      OK,    OK,      OK,    OK]],
  ['GET /readyz',                                         '',      [OK,   OK,     OK,     OK,      OK,    OK,      OK,    OK]],
  ['GET /api/v1/openapi.json',                            '',      [OK,   OK,     OK,     OK,      OK,    OK,      OK,    OK]],
  ['GET /metrics',                                        '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],

  ['GET /v2/device_profiles',                             '',      [NO,   OK,     OK,     OK,      OK,    DENY,    OK,    DENY]],
  ['GET /v2/device_profiles/{uuid}',                      '',      [NO,   OK,     OK,     OK,      OK,    DENY,    OK,    DENY]],
  ['GET /v2/device_profiles/{name}',                      '',      [NO,   OK,     OK,     OK,      OK,    DENY,    OK,    DENY]],
  ['POST /v2/device_profiles',                            '',      [NO,   DENY,   DENY,   DENY,    OK,    DENY,    DENY,  DENY]],
  ['DELETE /v2/device_profiles/{uuid}',                   '',      [NO,   DENY,   DENY,   DENY,    OK,    DENY,    DENY,  DENY]],
  ['DELETE /v2/device_profiles?value={name}',             '',      [NO,   DENY,   DENY,   DENY,    OK,    DENY,    DENY,  DENY]],

  ['GET /v2/accelerator_requests',                        'own',   [NO,   OK,     OK,     OK,      OK,    DENY,    OK,    DENY]],
  ['GET /v2/accelerator_requests',                        'other', [NO,   NF,     NF,     NF,      OK,    DENY,    NF,    DENY]],
  ['GET /v2/accelerator_requests/{uuid}',                 'own',   [NO,   OK,     OK,     OK,      OK,    DENY,    OK,    DENY]],
  ['GET /v2/accelerator_requests/{uuid}',                 'other', [NO,   NF,     NF,     NF,      OK,    DENY,    NF,    DENY]],
  ['POST /v2/accelerator_requests',                       '',      [NO,   DENY,   OK,     OK,      OK,    OK,      OK,    DENY]],
  ['PATCH /v2/accelerator_requests (bind)',               'own',   [NO,   DENY,   ROLE,   ROLE,    ROLE,  OK,      OK,    DENY]],
  ['PATCH /v2/accelerator_requests (bind)',               'other', [NO,   DENY,   ROLE,   ROLE,    ROLE,  NF,      NF,    DENY]],
  ['PATCH /v2/accelerator_requests/{uuid} (bind)',        'own',   [NO,   DENY,   ROLE,   ROLE,    ROLE,  OK,      OK,    DENY]],
  ['PATCH /v2/accelerator_requests/{uuid} (bind)',        'other', [NO,   DENY,   ROLE,   ROLE,    ROLE,  NF,      NF,    DENY]],
  ['PATCH /v2/accelerator_requests (unbind)',             'own',   [NO,   DENY,   ROLE,   ROLE,    ROLE,  OK,      OK,    DENY]],
  ['PATCH /v2/accelerator_requests (unbind)',             'other', [NO,   DENY,   ROLE,   ROLE,    ROLE,  NF,      NF,    DENY]],
  ['PATCH /v2/accelerator_requests/{uuid} (unbind)',      'own',   [NO,   DENY,   ROLE,   ROLE,    ROLE,  OK,      OK,    DENY]],
  ['PATCH /v2/accelerator_requests/{uuid} (unbind)',      'other', [NO,   DENY,   ROLE,   ROLE,    ROLE,  NF,      NF,    DENY]],
  ['DELETE /v2/accelerator_requests?arqs={uuid}',         'own',   [NO,   DENY,   OK,     OK,      OK,    OK,      OK,    DENY]],
  ['DELETE /v2/accelerator_requests?arqs={uuid}',         'other', [NO,   DENY,   NF,     NF,      OK,    NF,      NF,    DENY]],
  ['DELETE /v2/accelerator_requests/{uuid}',              'own',   [NO,   DENY,   OK,     OK,      OK,    OK,      OK,    DENY]],
  ['DELETE /v2/accelerator_requests/{uuid}',              'other', [NO,   DENY,   NF,     NF,      OK,    NF,      NF,    DENY]],
  ['DELETE /v2/accelerator_requests?arqs={uuid} (Bound)', 'own',   [NO,   DENY,   BOUND,  BOUND,   BOUND, OK,      OK,    DENY]],
  ['DELETE /v2/accelerator_requests?arqs={uuid} (Bound)', 'other', [NO,   DENY,   NF,     NF,      BOUND, NF,      NF,    DENY]],
  ['DELETE /v2/accelerator_requests/{uuid} (Bound)',      'own',   [NO,   DENY,   BOUND,  BOUND,   BOUND, OK,      OK,    DENY]],
  ['DELETE /v2/accelerator_requests/{uuid} (Bound)',      'other', [NO,   DENY,   NF,     NF,      BOUND, NF,      NF,    DENY]],
  ['DELETE /v2/accelerator_requests?instance={uuid}',     'own',   [NO,   DENY,   ROLE,   ROLE,    ROLE,  OK,      OK,    DENY]],
  ['DELETE /v2/accelerator_requests?instance={uuid}',     'other', [NO,   DENY,   ROLE,   ROLE,    ROLE,  NF,      NF,    DENY]],

  ['GET /v2/devices',                                     '',      [NO,   DENY,   DENY,   OK,      OK,    DENY,    DENY,  DENY]],
  ['GET /v2/devices/{uuid}',                              '',      [NO,   DENY,   DENY,   OK,      OK,    DENY,    DENY,  DENY]],
  ['POST /v2/devices/{uuid}/disable',                     '',      [NO,   DENY,   DENY,   DENY,    OK,    DENY,    DENY,  DENY]],
  ['POST /v2/devices/{uuid}/enable',                      '',      [NO,   DENY,   DENY,   DENY,    OK,    DENY,    DENY,  DENY]],
  ['GET /v2/deployables',                                 '',      [NO,   DENY,   DENY,   OK,      OK,    DENY,    DENY,  DENY]],
  ['GET /v2/deployables/{uuid}',                          '',      [NO,   DENY,   DENY,   OK,      OK,    DENY,    DENY,  DENY]],
  ['PATCH /v2/deployables/{uuid}/program',                '',      [NO,   DENY,   DENY,   DENY,    OK,    DENY,    DENY,  DENY]],
  ['GET /v2/attributes',                                  '',      [NO,   DENY,   DENY,   OK,      OK,    DENY,    DENY,  DENY]],
  ['GET /v2/attributes/{uuid}',                           '',      [NO,   DENY,   DENY,   OK,      OK,    DENY,    DENY,  DENY]],
  ['POST /v2/attributes',                                 '',      [NO,   DENY,   DENY,   DENY,    OK,    DENY,    DENY,  DENY]],
  ['DELETE /v2/attributes/{uuid}',                        '',      [NO,   DENY,   DENY,   DENY,    OK,    DENY,    DENY,  DENY]],

  ['PUT /api/v1/hosts/{host}/report',                     'own',   [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  OK]],
  ['PUT /api/v1/hosts/{host}/report',                     'other', [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  HOST]],
  ['GET /api/v1/hosts',                                   '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/hosts/{host}',                            '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/devices',                                 '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/devices/{uuid}',                          '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/devices/{uuid}/disable',                 '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/devices/{uuid}/enable',                  '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/devices/{uuid}/clean/retry',             '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/devices/{uuid}/clean/release',           '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/devices/{uuid}/health/clear',            '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/deployables',                             '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/deployables/{uuid}',                      '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/fleet',                                   '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/quotas',                                  '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/quotas/{project}',                        'own',   [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['GET /api/v1/quotas/{project}',                        'other', [NO,   QUOTA,  QUOTA,  QUOTA,   OK,    ROLE,    QUOTA, ROLE]],
  ['PUT /api/v1/quotas/{project}',                        'own',   [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['PUT /api/v1/quotas/{project}',                        'other', [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],

  ['POST /api/v1/hosts/{host}/heartbeat',                 'own',   [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  OK]],
  ['POST /api/v1/hosts/{host}/heartbeat',                 'other', [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  HOST]],
  ['GET /api/v1/hosts/{host}/telemetry',                  '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/hosts/{host}/telemetry/history',          '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/devices/{uuid}/telemetry/history',        '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/hosts/{host}/placement',                  '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/placement',                               '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],

  ['GET /api/v1/hosts/{host}/drivers',                    '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/hosts/{host}/jobs',                      '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/hosts/{host}/provision',                 '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/hosts/{host}/fence',                     '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/hosts/{host}/unfence',                   '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/hosts/{host}/jobs/next?waitSeconds=0',    'own',   [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  OK]],
  ['GET /api/v1/hosts/{host}/jobs/next?waitSeconds=0',    'other', [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  HOST]],
  ['POST /api/v1/jobs/{jobId}/result',                    'own',   [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  OK]],
  ['POST /api/v1/jobs/{jobId}/result',                    'other', [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  HOST]],
  ['GET /api/v1/jobs',                                    '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/jobs/{uuid}',                             '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],

  ['POST /api/v1/bitstreams',                             '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/bitstreams',                              '',      [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['GET /api/v1/bitstreams/{uuid}',                       '',      [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['GET /api/v1/bitstreams/{uuid}/content',               '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  OK]],
  ['POST /api/v1/bitstreams/{uuid}/retire',               '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/signing-keys',                           '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/signing-keys',                            '',      [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['POST /api/v1/signing-keys/{keyId}/revoke',            '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/devices/{uuid}/provenance',               '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/devices/{uuid}/tenancy',                  '',      [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['GET /api/v1/devices/{uuid}/timeline',                 '',      [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['GET /api/v1/audit/verify',                            '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/usage',                                   '',      [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['GET /api/v1/audit/health-holders',                    '',      [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],

  ['GET /api/v1/reactors',                                '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/reactors/{name}/parked',                  '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/reactors/{name}/parked/{position}/retry', '',     [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/workflows',                               '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  // GraphQL (docs/graphql.md): each query follows the rule of the REST route for the same data.
  ['POST /graphql (hosts)',                               '',      [NO,   ROLE,   ROLE,   OK,      OK,    ROLE,    ROLE,  ROLE]],
  ['POST /graphql (acceleratorRequest)',                  'own',   [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['POST /graphql (acceleratorRequest)',                  'other', [NO,   NF,     NF,     NF,      OK,    ROLE,    NF,    ROLE]],
  ['POST /graphql (quota)',                               'own',   [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['POST /graphql (quota)',                               'other', [NO,   QUOTA,  QUOTA,  QUOTA,   OK,    ROLE,    QUOTA, ROLE]],
  ['POST /graphql (workflows)',                           '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /graphql (deviceProfiles)',                       '',      [NO,   OK,     OK,     OK,      OK,    ROLE,    OK,    ROLE]],
  ['GET /api/v1/workflows/runtime',                       '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['GET /api/v1/workflows/{name}/{id}',                   '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/workflows/{name}/{id}/cancel',           '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
  ['POST /api/v1/workflows/{name}/{id}/retry',            '',      [NO,   ROLE,   ROLE,   ROLE,    OK,    ROLE,    ROLE,  ROLE]],
];

/**
 * What a cell's target is set up from: its scope and project (own or
 * other), and a suffix for fresh names. Not the caller: a target left
 * untouched serves the next caller too.
 */
interface Target {
  readonly scope: Scope;
  readonly project: string;
  readonly unique: string;
}

/** What one cell sends once its target is set up, and what an allowed or hidden answer must show. */
interface Call {
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly allowed?: (response: TestResponse, caller: Caller) => unknown;
  readonly hidden?: (response: TestResponse, caller: Caller) => unknown;
}

const PROFILE = 'matrix-fpga';
const IMAGE = '9e1b8a2c-4d3e-4f5a-8b6c-7d8e9f0a1b2c';
const OTHER_HOST = 'compute-2';
/** A host only the fence cells use: fencing it releases nothing another cell holds. */
const FENCE_HOST = 'compute-fence';
/** A host only the clean cells use, reported and never served by an agent. */
const CLEAN_HOST = 'compute-clean';
const FIXTURE_LIMITS = { FPGA: 1000 };
/** The FPGA of hostReportBody's hosts: heartbeats carry its telemetry. */
const FPGA_PCI = '0000:5e:00.0';
const DRIVER = 'policy-matrix';
const DRIVER_EVIDENCE = { recap: { ok: 3, changed: 1, failed: 0, unreachable: 0, skipped: 0 }, playbook: `${DRIVER}/install.yml`, version: '1.0.0' };

/** Members of a resource or a list of them: a refusal, or a 404 for another project's target, carries none. */
const DATA_KEYS = new Set([
  'uuid', 'project_id', 'state', 'arqs', 'device_profile', 'device_profiles', 'devices', 'deployables', 'attributes', 'items', 'limits', 'usage',
  'jobs', 'evidence', 'drivers', 'telemetry', 'providers',
]);

const methodOf = (endpoint: string): string => endpoint.split(' ')[0];
/** `PATCH /v2/x/{uuid} (bind)` → `PATCH /v2/x/{}`: the route an endpoint of the table is served by. */
const routeOf = (endpoint: string): string => endpoint.replace(/ \(.*\)$/, '').replace(/\?.*$/, '').replace(/\{[^}]*\}/g, '{}');

const cells = POLICY.flatMap(([endpoint, scope, outcomes]) =>
  CALLERS.map((caller, column) => ({
    endpoint,
    scope,
    caller,
    outcome: outcomes[column] as Outcome,
    title: `${endpoint}${scope ? ` [${scope}]` : ''} as ${caller} → ${labelOf(outcomes[column])}`,
  })),
);

/** Facts the inventory's job-facts reactor records from finished jobs, behind the call that finished them. */
const JOB_FACTS = new Set([
  'inventory.RegionProgrammed',
  'inventory.RegionProgramFailed',
  'inventory.ShellProgrammed',
  'inventory.VfsConfigured',
  'inventory.DriverInstalled',
  'inventory.DriverUninstalled',
  'inventory.DriverFailed',
]);

describe('policy matrix: every endpoint × caller × own/other project', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let workflowsReached = 0;
  let rootHeaders: Record<string, string>;
  let profileUuid: string;
  let fpgaRp: string;
  let fpgaDevice: string;
  let fpgaDeployable: string;
  let spareGpu: string;
  /** A finished install-driver job of the agent's host, and the position of its result: what the jobs and drivers reads show. */
  let standingJob: string;
  let standingBitstream: string;
  /** The image signing key the matrix trusts: images registered by its cells are signed with it. */
  const signer = generateKeyPairSync('ed25519');
  const publicPem = (key = signer.publicKey) => key.export({ type: 'spki', format: 'pem' }).toString();
  const signedImage = (unique: string) => {
    const content = Buffer.from(`policy-matrix image ${unique}`);
    return { content: content.toString('base64'), signature: sign(null, content, signer.privateKey).toString('base64'), functionId: '9f'.repeat(16), interfaceId: 'matrix-shell', vendor: 'intel' };
  };
  const registerImage = async (unique: string): Promise<string> => {
    const registered = await asAdmin('POST', '/api/v1/bitstreams', signedImage(unique));
    expect(registered.status).toBe(201);
    return registered.body.bitstreamId;
  };
  let standingJobPosition: number;
  let standingBitstreamPosition: number;
  const bitstreamsFresh = () => ({ 'x-ledger-min-position': String(standingBitstreamPosition) });
  const standingArqs: Record<string, string> = {};
  let counter = 0;

  type Cleanup = () => Promise<unknown>;
  const cellCleanups: Cleanup[] = [];
  /** Where setup code registers what to undo: the current target's list while it is prepared, else the cell's. */
  let cleanups: Cleanup[] = cellCleanups;
  /**
   * The last cell's target, reused by the next cell of the same row and
   * project as long as it is untouched (refused or hidden), which keeps the
   * file fast. A cell that is allowed, or fails, spends it.
   */
  let reusable: { key: string; call: Call; cleanups: Cleanup[]; spent: boolean } | undefined;

  const undo = async (list: Cleanup[]) => {
    for (const cleanup of list.splice(0).reverse()) await cleanup();
  };

  async function releaseTarget(): Promise<void> {
    const released = reusable;
    reusable = undefined;
    if (released) await undo(released.cleanups);
  }

  async function targetOf(endpoint: string, target: Target): Promise<Call> {
    const key = target.scope === '' ? endpoint : `${endpoint} [${target.scope}] ${target.project}`;
    if (reusable?.key !== key) {
      await releaseTarget(); // first, so that a bound request gives its attach handle back
      const targetCleanups: Cleanup[] = [];
      cleanups = targetCleanups;
      try {
        reusable = { key, call: await CALLS[endpoint](target), cleanups: targetCleanups, spent: true };
      } finally {
        cleanups = cellCleanups;
      }
    }
    reusable!.spent = true;
    return reusable!.call;
  }

  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) => ledger.request(method, path, { headers, body });
  const asAdmin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });

  /**
   * The clean cells' device: a handle claimed and released for cleaning on a
   * host no agent serves, so its clean job is refused (JOB.AGENT_UNAVAILABLE)
   * and it is clean-failed. A cell that retried or released it leaves it
   * cleaning or clean; the next cell dirties it again.
   */
  async function cleanFailedDevice(): Promise<string> {
    expect((await asAdmin('PUT', `/api/v1/hosts/${CLEAN_HOST}/report`, hostReportBody(4))).status).toBe(200);
    const device = deviceUuidOf(CLEAN_HOST, '0000:5e:00.0');
    const cleanState = async () =>
      (await ledger.request('GET', `/api/v1/devices/${device}`, { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(await store.headPosition()) } })).body
        .cleanState;
    if ((await cleanState()) === 'clean') {
      const deployable: string = (await asAdmin('GET', `/api/v1/deployables?hostname=${CLEAN_HOST}&resourceClass=FPGA`)).body.items[0].uuid;
      const devices = ledger.app.get<{ run(command: DeviceCommand, context: CommandContext): Promise<unknown> }>(DEVICE_COMMANDS);
      const [arqUuid, context] = [randomUUID(), { actor: SYSTEM_ACTOR, correlationId: randomUUID() }];
      const candidates = [attachHandleUuidOf(deployable, 'VF/0000:5e:00.1')];
      await devices.run({ type: 'ClaimAttachHandle', deviceUuid: device, deployableUuid: deployable, arqUuid, candidates }, context);
      await devices.run({ type: 'ReleaseAttachHandle', deviceUuid: device, arqUuid, clean: true }, context);
    }
    await eventually(async () => (await cleanState()) === 'clean-failed');
    return device;
  }
  /** Admin plus a service token: sees every project and may delete bound requests. Cleans up after cells. */
  const asRoot = (method: string, path: string) => send(method, path, rootHeaders);
  const ownerOf = (project: string, roles: ('member' | 'service')[] = ['member']) => ledger.token({ user: `owner-${project}`, project, roles });

  const bindBody = (uuid: string, instance = randomUUID()) => ({
    [uuid]: [
      { op: 'add', path: '/hostname', value: AGENT_HOST },
      { op: 'add', path: '/device_rp_uuid', value: fpgaRp },
      { op: 'add', path: '/instance_uuid', value: instance },
    ],
  });
  const unbindBody = (uuid: string) => ({
    [uuid]: [
      { op: 'remove', path: '/hostname' },
      { op: 'remove', path: '/device_rp_uuid' },
      { op: 'remove', path: '/instance_uuid' },
    ],
  });

  async function createArq(project: string): Promise<string> {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: ownerOf(project), body: { device_profile_name: PROFILE } });
    expect(created.status).toBe(201);
    const uuid: string = created.body.arqs[0].uuid;
    cleanups.push(() => asRoot('DELETE', `/v2/accelerator_requests/${uuid}`));
    return uuid;
  }

  async function createBoundArq(project: string): Promise<{ uuid: string; instance: string }> {
    const uuid = await createArq(project);
    const instance = randomUUID();
    const bound = await ledger.request('PATCH', '/v2/accelerator_requests', { token: ownerOf(project, ['member', 'service']), body: bindBody(uuid, instance) });
    expect(bound.status).toBe(202);
    return { uuid, instance };
  }

  /** The request's state as an admin sees it, or `absent`. */
  async function stateOf(uuid: string): Promise<string> {
    const shown = await asAdmin('GET', `/v2/accelerator_requests/${uuid}`);
    return shown.status === 404 ? 'absent' : shown.body.state;
  }

  async function createProfile(name: string): Promise<string> {
    const created = await asAdmin('POST', '/v2/device_profiles', [{ name, groups: [{ 'resources:FPGA': '1' }] }]);
    expect(created.status).toBe(201);
    cleanups.push(() => asAdmin('DELETE', `/v2/device_profiles/${created.body.uuid}`));
    return created.body.uuid;
  }

  async function createAttribute(key: string): Promise<string> {
    const created = await asAdmin('POST', '/v2/attributes', { deployable_id: numericIdOf(fpgaDeployable), key, value: 'v' });
    expect(created.status).toBe(201);
    cleanups.push(() => asAdmin('DELETE', `/v2/attributes/${created.body.uuid}`));
    return created.body.uuid;
  }

  /** Device maintenance cells work on a GPU no request uses, and leave it enabled. */
  async function maintenanceTarget(disabled: boolean): Promise<string> {
    if (disabled) expect((await asAdmin('POST', `/api/v1/devices/${spareGpu}/disable`, {})).status).toBe(200);
    cleanups.push(() => asAdmin('POST', `/api/v1/devices/${spareGpu}/enable`));
    return spareGpu;
  }

  const uuidsOf = (response: TestResponse): string[] => response.body.arqs.map((arq: { uuid: string }) => arq.uuid);
  const expectOnlyProject = (response: TestResponse, caller: Caller) => {
    if (caller === 'admin') return;
    expect(new Set(response.body.arqs.map((arq: { project_id: string }) => arq.project_id))).toEqual(new Set([projectOf(caller)]));
  };
  const expectArqNotFound = (response: TestResponse) => {
    expect({ status: response.status, code: response.headers.get('x-error-code') }).toEqual({ status: 404, code: 'ARQ.NOT_FOUND' });
    expect(response.body.error_message).toEqual(expect.any(String));
  };
  const expectStatus = (status: number) => (response: TestResponse) => expect(response.status).toBe(status);

  /** The host a host route's cell targets: the agent's own, or another that has reported (reporting it again appends nothing). */
  async function hostOf(scope: Scope): Promise<string> {
    if (scope !== 'other') return AGENT_HOST;
    expect((await asAdmin('PUT', `/api/v1/hosts/${OTHER_HOST}/report`, hostReportBody(2))).status).toBe(200);
    // Its agent has sent a heartbeat, as a running agent has: the ledger takes jobs only for such hosts (JOB.AGENT_UNAVAILABLE).
    expect((await asAdmin('POST', `/api/v1/hosts/${OTHER_HOST}/heartbeat`, heartbeatBody(0))).status).toBe(200);
    return OTHER_HOST;
  }

  /** A heartbeat with the FPGA's health as it was (appends nothing) and one telemetry sample for the live view. */
  const heartbeatBody = (sample: number) => ({
    agentVersion: '0.1.0',
    intervalSeconds: 3600,
    devices: [{ pciAddress: FPGA_PCI, health: 'ok', telemetry: { matrixSample: sample } }],
  });
  /** A history sample of the step (a minute) a heartbeat sent at `sentAt` fell in: the step's first heartbeat, that one or an earlier one. */
  const sampleOfStep = (sentAt: number) => {
    const minutes = [sentAt, sentAt + 5_000].map((at) => new Date(at).toISOString().slice(0, 16));
    return expect.objectContaining({ at: expect.stringMatching(new RegExp(`^(${minutes.join('|')})`)), telemetry: { matrixSample: expect.any(Number) } });
  };
  const fpgaTelemetryOf = async (host: string): Promise<unknown> => {
    const shown = await asAdmin('GET', `/api/v1/hosts/${host}/telemetry`);
    expect(shown.status).toBe(200);
    return shown.body.devices.find((device: { pciAddress: string }) => device.pciAddress === FPGA_PCI)?.telemetry;
  };

  const jobsFresh = () => ({ 'x-ledger-min-position': String(standingJobPosition) });
  const jobEventsOf = async (jobId: string) => (await store.readStream(`job-${jobId}`)).map((event) => ({ type: event.type, data: event.data }));

  /** Fails a job as an admin unless it finished, so that no job waits for a poll, or times out, during a later cell. */
  async function settleJob(jobId: string): Promise<void> {
    if ((await jobEventsOf(jobId)).some(({ type }) => type === 'jobs.JobCompleted' || type === 'jobs.JobFailed')) return;
    const body = { outcome: 'failed', code: 'POLICY_MATRIX.SETTLED', reason: 'settled by the policy matrix', evidence: {} };
    expect((await asAdmin('POST', `/api/v1/jobs/${jobId}/result`, body)).status).toBe(200);
  }

  /** A job an admin requested for `host`, waiting; settled after the cell unless the cell finished it. */
  async function createJob(host: string): Promise<string> {
    const requested = await asAdmin('POST', `/api/v1/hosts/${host}/jobs`, { kind: 'discover', params: {}, timeoutSeconds: 3600 });
    expect(requested.status).toBe(202);
    const { jobId } = requested.body;
    cleanups.push(() => settleJob(jobId));
    return jobId;
  }

  /** Settles what waits for the host (a program job, say), so that its long poll answers at once with nothing and dispatches nothing. */
  async function withoutWaitingJobs(host: string): Promise<string> {
    const fresh = { 'x-ledger-min-position': String(await store.headPosition()) };
    const waiting = await ledger.request('GET', `/api/v1/jobs?hostname=${host}&state=requested&limit=1000`, { token: ledger.adminToken, headers: fresh });
    expect(waiting.status).toBe(200);
    for (const { jobId } of waiting.body.items) await settleJob(jobId);
    return host;
  }

  /** Cancels a provisioning of the agent's host and fails the job it waits for, so it ends compensated before the next cell. */
  async function stopProvisioning(workflowId: string): Promise<void> {
    expect((await asAdmin('POST', `/api/v1/workflows/provision/${workflowId}/cancel`, { reason: 'policy matrix' })).status).toBe(202);
    await withoutWaitingJobs(AGENT_HOST);
    await eventually(async () => (await asAdmin('GET', `/api/v1/workflows/provision/${workflowId}`)).body.status === 'compensated');
  }

  /** A bind or unbind of one request: allowed changes its state, hidden leaves it as it was. */
  const patchCall = (kind: 'bind' | 'unbind', onePath: boolean) => async ({ project }: Target): Promise<Call> => {
    const uuid = kind === 'bind' ? await createArq(project) : (await createBoundArq(project)).uuid;
    const [before, after] = kind === 'bind' ? ['Initial', 'Bound'] : ['Bound', 'Unbound'];
    return {
      path: onePath ? `/v2/accelerator_requests/${uuid}` : '/v2/accelerator_requests',
      body: kind === 'bind' ? bindBody(uuid) : unbindBody(uuid),
      allowed: async (response) => {
        expect(response.status).toBe(202);
        expect(await stateOf(uuid)).toBe(after);
      },
      hidden: async (response) => {
        expectArqNotFound(response);
        expect(await stateOf(uuid)).toBe(before);
      },
    };
  };

  /** A delete of one request, Initial or Bound: allowed removes it, hidden leaves it. */
  const deleteCall = (bound: boolean, byQuery: boolean) => async ({ project }: Target): Promise<Call> => {
    const uuid = bound ? (await createBoundArq(project)).uuid : await createArq(project);
    return {
      path: byQuery ? `/v2/accelerator_requests?arqs=${uuid}` : `/v2/accelerator_requests/${uuid}`,
      allowed: async (response) => {
        expect(response.status).toBe(204);
        expect(await stateOf(uuid)).toBe('absent');
      },
      hidden: async (response) => {
        expectArqNotFound(response);
        expect(await stateOf(uuid)).toBe(bound ? 'Bound' : 'Initial');
      },
    };
  };

  const workflowsFresh = () => ({ 'x-ledger-min-position': String(workflowsReached) });
  /** Starts an instance of a policy workflow and waits until the API shows it `status`. */
  const startPolicyWorkflow = async (name: string, id: string, status: string): Promise<string> => {
    const { position } = await store.append(`policyorder-${id}`, [testEvent(`test.${name}`, { id })], { expected: 'any' });
    await eventually(async () => (await ledger.request('GET', `/api/v1/workflows/${name}/${id}`, { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(position) } })).body.status === status);
    // Until the runtime has nothing left to record: a refusal's cell checks that the log did not move.
    const runtime = ledger.app.get<WorkflowRuntime>(WORKFLOW_RUNTIME);
    for (let head = -1; head !== (workflowsReached = await store.headPosition()); ) {
      head = workflowsReached;
      await runtime.waitForPosition(head);
    }
    return id;
  };
  const CALLS: Record<string, (target: Target) => Call | Promise<Call>> = {
    'GET /': () => ({ path: '/', allowed: (r) => expect(r.body.versions[0].id).toBe('v2') }),
    'GET /v2': () => ({ path: '/v2', allowed: (r) => expect(r.body.id).toBe('v2.0') }),
    'GET /healthz': () => ({ path: '/healthz', allowed: (r) => expect(r.body).toEqual({ status: 'ok' }) }),
    'GET /readyz': () => ({ path: '/readyz', allowed: expectStatus(200) }),
    'GET /api/v1/openapi.json': () => ({ path: '/api/v1/openapi.json', allowed: (r) => expect(r.body.openapi).toEqual(expect.any(String)) }),
    'GET /metrics': () => ({ path: '/metrics', allowed: (r) => expect(r.body).toMatch(/^ledger_http_requests_total\{/m) }),

    'GET /v2/device_profiles': () => ({
      path: '/v2/device_profiles',
      allowed: (r) => expect(r.body.device_profiles.map((p: { name: string }) => p.name)).toContain(PROFILE),
    }),
    'GET /v2/device_profiles/{uuid}': () => ({
      path: `/v2/device_profiles/${profileUuid}`,
      allowed: (r) => expect(r.body.device_profile.name).toBe(PROFILE),
    }),
    'GET /v2/device_profiles/{name}': () => ({
      path: `/v2/device_profiles/${PROFILE}`,
      headers: { 'openstack-api-version': 'accelerator 2.2' },
      allowed: (r) => expect(r.body.device_profile.uuid).toBe(profileUuid),
    }),
    'POST /v2/device_profiles': ({ unique }) => ({
      path: '/v2/device_profiles',
      body: [{ name: `matrix-${unique}`, groups: [{ 'resources:FPGA': '1' }] }],
      allowed: (r) => {
        expect([r.status, r.body.name]).toEqual([201, `matrix-${unique}`]);
        cleanups.push(() => asAdmin('DELETE', `/v2/device_profiles/${r.body.uuid}`));
      },
    }),
    'DELETE /v2/device_profiles/{uuid}': async ({ unique }) => {
      const uuid = await createProfile(`matrix-${unique}`);
      return {
        path: `/v2/device_profiles/${uuid}`,
        allowed: async (r) => {
          expect(r.status).toBe(204);
          expect((await asAdmin('GET', `/v2/device_profiles/${uuid}`)).status).toBe(404);
        },
      };
    },
    'DELETE /v2/device_profiles?value={name}': async ({ unique }) => {
      const uuid = await createProfile(`matrix-${unique}`);
      return {
        path: `/v2/device_profiles?value=matrix-${unique}`,
        allowed: async (r) => {
          expect(r.status).toBe(204);
          expect((await asAdmin('GET', `/v2/device_profiles/${uuid}`)).status).toBe(404);
        },
      };
    },

    'GET /v2/accelerator_requests': ({ project }) => ({
      path: '/v2/accelerator_requests',
      allowed: (r, caller) => {
        expect(uuidsOf(r)).toContain(standingArqs[project]);
        expectOnlyProject(r, caller);
      },
      hidden: (r, caller) => {
        expect(r.status).toBe(200);
        expect(uuidsOf(r)).not.toContain(standingArqs[project]);
        expectOnlyProject(r, caller);
      },
    }),
    'GET /v2/accelerator_requests/{uuid}': ({ project }) => ({
      path: `/v2/accelerator_requests/${standingArqs[project]}`,
      allowed: (r) => expect([r.status, r.body.uuid, r.body.project_id]).toEqual([200, standingArqs[project], project]),
      hidden: expectArqNotFound,
    }),
    'POST /v2/accelerator_requests': () => ({
      path: '/v2/accelerator_requests',
      body: { device_profile_name: PROFILE },
      allowed: (r, caller) => {
        expect(r.status).toBe(201);
        for (const arq of r.body.arqs) cleanups.push(() => asRoot('DELETE', `/v2/accelerator_requests/${arq.uuid}`));
        expect(r.body.arqs.map((arq: { project_id: string }) => arq.project_id)).toEqual([projectOf(caller)]);
      },
    }),
    'PATCH /v2/accelerator_requests (bind)': patchCall('bind', false),
    'PATCH /v2/accelerator_requests/{uuid} (bind)': patchCall('bind', true),
    'PATCH /v2/accelerator_requests (unbind)': patchCall('unbind', false),
    'PATCH /v2/accelerator_requests/{uuid} (unbind)': patchCall('unbind', true),
    'DELETE /v2/accelerator_requests?arqs={uuid}': deleteCall(false, true),
    'DELETE /v2/accelerator_requests/{uuid}': deleteCall(false, false),
    'DELETE /v2/accelerator_requests?arqs={uuid} (Bound)': deleteCall(true, true),
    'DELETE /v2/accelerator_requests/{uuid} (Bound)': deleteCall(true, false),
    'DELETE /v2/accelerator_requests?instance={uuid}': async ({ project }) => {
      const { uuid, instance } = await createBoundArq(project);
      return {
        path: `/v2/accelerator_requests?instance=${instance}`,
        allowed: async (r) => {
          expect(r.status).toBe(204);
          expect(await stateOf(uuid)).toBe('absent');
        },
        // Deleting by instance is idempotent: another project's instance is "nothing to delete", and stays.
        hidden: async (r) => {
          expect(r.status).toBe(204);
          expect(await stateOf(uuid)).toBe('Bound');
        },
      };
    },

    'GET /v2/devices': () => ({ path: '/v2/devices', allowed: (r) => expect(r.body.devices.map((d: { uuid: string }) => d.uuid)).toContain(fpgaDevice) }),
    'GET /v2/devices/{uuid}': () => ({ path: `/v2/devices/${fpgaDevice}`, allowed: (r) => expect(r.body.uuid).toBe(fpgaDevice) }),
    'POST /v2/devices/{uuid}/disable': async () => ({
      path: `/v2/devices/${await maintenanceTarget(false)}/disable`,
      allowed: (r) => expect([r.status, r.body.status]).toEqual([200, 'maintaining']),
    }),
    'POST /v2/devices/{uuid}/enable': async () => ({
      path: `/v2/devices/${await maintenanceTarget(true)}/enable`,
      allowed: (r) => expect([r.status, r.body.status]).toEqual([200, 'enabled']),
    }),
    'GET /v2/deployables': () => ({
      path: '/v2/deployables',
      allowed: (r) => expect(r.body.deployables.map((d: { uuid: string }) => d.uuid)).toContain(fpgaDeployable),
    }),
    'GET /v2/deployables/{uuid}': () => ({ path: `/v2/deployables/${fpgaDeployable}`, allowed: (r) => expect(r.body.uuid).toBe(fpgaDeployable) }),
    'PATCH /v2/deployables/{uuid}/program': () => ({
      path: `/v2/deployables/${fpgaDeployable}/program`,
      body: [{ op: 'replace', path: '/program', value: [{ image_uuid: IMAGE }] }],
      allowed: (r) => {
        expect([r.status, r.headers.get('location')]).toEqual([202, expect.stringMatching(/^\/api\/v1\/jobs\//)]);
        cleanups.push(() => settleJob(r.headers.get('location')!.split('/').at(-1)!)); // no program job waits for the agent's polls
      },
    }),
    'GET /v2/attributes': () => ({
      path: `/v2/attributes?deployable_id=${numericIdOf(fpgaDeployable)}`,
      allowed: (r) => expect(r.body.attributes.map((a: { key: string }) => a.key)).toContain('rc'),
    }),
    'GET /v2/attributes/{uuid}': () => ({
      path: `/v2/attributes/${attributeUuidOf(fpgaDeployable, 'rc')}`,
      allowed: (r) => expect([r.body.key, r.body.value]).toEqual(['rc', 'FPGA']),
    }),
    'POST /v2/attributes': ({ unique }) => ({
      path: '/v2/attributes',
      body: { deployable_id: numericIdOf(fpgaDeployable), key: `matrix-${unique}`, value: 'v' },
      allowed: (r) => {
        expect([r.status, r.body.key]).toEqual([201, `matrix-${unique}`]);
        cleanups.push(() => asAdmin('DELETE', `/v2/attributes/${r.body.uuid}`));
      },
    }),
    'DELETE /v2/attributes/{uuid}': async ({ unique }) => {
      const uuid = await createAttribute(`matrix-${unique}`);
      return {
        path: `/v2/attributes/${uuid}`,
        allowed: async (r) => {
          expect(r.status).toBe(204);
          expect((await asAdmin('GET', `/v2/attributes/${uuid}`)).status).toBe(404);
        },
      };
    },

    // The agent's own host gets its unchanged report again (appends nothing); another host is a new one.
    'PUT /api/v1/hosts/{host}/report': ({ scope }) => ({
      path: `/api/v1/hosts/${scope === 'own' ? AGENT_HOST : OTHER_HOST}/report`,
      body: scope === 'own' ? hostReportBody(1) : hostReportBody(2),
      allowed: (r) => expect([r.status, r.body.hostname]).toEqual([200, scope === 'own' ? AGENT_HOST : OTHER_HOST]),
    }),
    'GET /api/v1/hosts': () => ({ path: '/api/v1/hosts', allowed: (r) => expect(JSON.stringify(r.body)).toContain(AGENT_HOST) }),
    'GET /api/v1/hosts/{host}': () => ({ path: `/api/v1/hosts/${AGENT_HOST}`, allowed: expectStatus(200) }),
    'GET /api/v1/devices': () => ({
      path: '/api/v1/devices',
      allowed: (r) => expect(r.body.items.map((d: { uuid: string }) => d.uuid)).toContain(fpgaDevice),
    }),
    'GET /api/v1/devices/{uuid}': () => ({ path: `/api/v1/devices/${fpgaDevice}`, allowed: (r) => expect(r.body.uuid).toBe(fpgaDevice) }),
    'POST /api/v1/devices/{uuid}/disable': async () => ({
      path: `/api/v1/devices/${await maintenanceTarget(false)}/disable`,
      body: { reason: 'policy matrix' },
      allowed: (r) => expect([r.status, r.body.status, r.body.appended]).toEqual([200, 'maintaining', 1]),
    }),
    'POST /api/v1/devices/{uuid}/enable': async () => ({
      path: `/api/v1/devices/${await maintenanceTarget(true)}/enable`,
      allowed: (r) => expect([r.status, r.body.status, r.body.appended]).toEqual([200, 'enabled', 1]),
    }),
    'POST /api/v1/devices/{uuid}/clean/retry': async () => ({
      path: `/api/v1/devices/${await cleanFailedDevice()}/clean/retry`,
      allowed: (r) => expect([r.status, r.body.appended]).toEqual([200, 1]),
    }),
    'POST /api/v1/devices/{uuid}/clean/release': async () => ({
      path: `/api/v1/devices/${await cleanFailedDevice()}/clean/release`,
      body: { reason: 'policy matrix' },
      allowed: (r) => expect([r.status, r.body.appended]).toEqual([200, 1]),
    }),
    // A healthy device: the clear is allowed and records nothing.
    'POST /api/v1/devices/{uuid}/health/clear': () => ({
      path: `/api/v1/devices/${fpgaDevice}/health/clear`,
      body: { note: 'policy matrix' },
      allowed: (r) => expect([r.status, r.body.appended]).toEqual([200, 0]),
    }),
    'GET /api/v1/deployables': () => ({
      path: '/api/v1/deployables',
      allowed: (r) => expect(r.body.items.map((d: { uuid: string }) => d.uuid)).toContain(fpgaDeployable),
    }),
    'GET /api/v1/deployables/{uuid}': () => ({
      path: `/api/v1/deployables/${fpgaDeployable}`,
      allowed: (r) => expect(r.body.uuid).toBe(fpgaDeployable),
    }),
    'GET /api/v1/quotas/{project}': ({ project }) => ({
      path: `/api/v1/quotas/${project}`,
      allowed: (r) => {
        expect([r.status, r.body.project]).toEqual([200, project]);
        if (project === PROJECT_A || project === PROJECT_B) expect(r.body.limits).toEqual(FIXTURE_LIMITS);
      },
    }),
    'PUT /api/v1/quotas/{project}': ({ project }) => {
      const limit = ++counter;
      return {
        path: `/api/v1/quotas/${project}`,
        body: { limits: { CUSTOM_POLICY_MATRIX: limit } },
        allowed: (r) => {
          expect([r.status, r.body.limits.CUSTOM_POLICY_MATRIX]).toEqual([200, limit]);
          cleanups.push(() => asAdmin('PUT', `/api/v1/quotas/${project}`, { limits: { CUSTOM_POLICY_MATRIX: null } }));
        },
      };
    },

    // A heartbeat that changes no health appends nothing; its sample is in the live view.
    'POST /api/v1/hosts/{host}/heartbeat': async ({ scope, unique }) => {
      const host = await hostOf(scope);
      const sample = Number(unique);
      return {
        path: `/api/v1/hosts/${host}/heartbeat`,
        body: heartbeatBody(sample),
        allowed: async (r) => {
          expect([r.status, r.body]).toEqual([200, { hostname: host, appended: 0, position: null, jobsWaiting: expect.any(Number), unknownDevices: [] }]);
          expect(await fpgaTelemetryOf(host)).toEqual({ matrixSample: sample });
        },
      };
    },
    'GET /api/v1/hosts/{host}/telemetry': async ({ unique }) => {
      const sample = Number(unique);
      const beat = await send('POST', `/api/v1/hosts/${AGENT_HOST}/heartbeat`, credentialsOf(ledger, 'agent'), heartbeatBody(sample));
      expect([beat.status, beat.body.appended]).toEqual([200, 0]);
      return {
        path: `/api/v1/hosts/${AGENT_HOST}/telemetry`,
        allowed: (r) => {
          expect([r.status, r.body.hostname, r.body.status]).toEqual([200, AGENT_HOST, 'up']);
          expect(r.body.devices).toEqual([expect.objectContaining({ pciAddress: FPGA_PCI, health: 'ok', telemetry: { matrixSample: sample } })]);
        },
      };
    },
    // The history keeps a sample per device per step (a minute), the step's first heartbeat: this step has one.
    'GET /api/v1/hosts/{host}/telemetry/history': async ({ unique }) => {
      const sentAt = Date.now();
      await send('POST', `/api/v1/hosts/${AGENT_HOST}/heartbeat`, credentialsOf(ledger, 'agent'), heartbeatBody(Number(unique)));
      return {
        path: `/api/v1/hosts/${AGENT_HOST}/telemetry/history?minutes=5`,
        allowed: (r) => expect(r.body.devices).toContainEqual(expect.objectContaining({ hostname: AGENT_HOST, samples: expect.arrayContaining([sampleOfStep(sentAt)]) })),
      };
    },
    'GET /api/v1/devices/{uuid}/telemetry/history': async ({ unique }) => {
      const sentAt = Date.now();
      await send('POST', `/api/v1/hosts/${AGENT_HOST}/heartbeat`, credentialsOf(ledger, 'agent'), heartbeatBody(Number(unique)));
      return {
        path: `/api/v1/devices/${fpgaDevice}/telemetry/history`,
        allowed: (r) => expect(r.body.devices).toEqual([expect.objectContaining({ deviceUuid: fpgaDevice, samples: expect.arrayContaining([sampleOfStep(sentAt)]) })]),
      };
    },
    'GET /api/v1/fleet': () => ({
      path: `/api/v1/fleet?search=${AGENT_HOST}`,
      allowed: (r) => expect(r.body.hosts.map((host: { hostname: string }) => host.hostname)).toEqual([AGENT_HOST]),
    }),
    'GET /api/v1/quotas': () => ({
      path: '/api/v1/quotas',
      allowed: (r) => expect(r.body).toEqual({ items: expect.any(Array), nextCursor: null }),
    }),

    // The agent's host as Placement should hold it: its FPGA among the child providers, under Cyborg's uuid.
    'GET /api/v1/hosts/{host}/placement': async () => ({
      path: `/api/v1/hosts/${AGENT_HOST}/placement`,
      headers: { 'x-ledger-min-position': String(await store.headPosition()) },
      allowed: (r) => {
        expect([r.status, r.body.hostname]).toEqual([200, AGENT_HOST]);
        expect(r.body.providers).toContainEqual(expect.objectContaining({ uuid: fpgaRp, deployableUuid: fpgaDeployable, resourceClass: 'FPGA', traits: expect.arrayContaining(['OWNER_CYBORG']) }));
        // No LEDGER_PLACEMENT_URL here: nothing has compared the host with Placement.
        expect(r.body.sync).toBeNull();
      },
    }),
    // The reconciler is off in this ledger: the fleet view says so, with every state at zero.
    'GET /api/v1/placement': () => ({
      path: '/api/v1/placement',
      allowed: (r) =>
        expect(r.body).toEqual({
          reconciler: { enabled: false },
          counts: { 'in-sync': 0, 'blocked-by-allocations': 0, 'waiting-for-compute-node': 0, 'placement-unavailable': 0, failed: 0 },
          items: [],
          nextCursor: null,
        }),
    }),
    'GET /api/v1/hosts/{host}/drivers': () => ({
      path: `/api/v1/hosts/${AGENT_HOST}/drivers`,
      headers: jobsFresh(),
      allowed: (r) =>
        expect(r.body).toEqual({
          hostname: AGENT_HOST,
          drivers: [expect.objectContaining({ driver: DRIVER, status: 'installed', version: DRIVER_EVIDENCE.version, lastJobId: standingJob })],
          pending: [],
        }),
    }),
    'POST /api/v1/hosts/{host}/jobs': () => ({
      path: `/api/v1/hosts/${AGENT_HOST}/jobs`,
      body: { kind: 'discover', params: {}, timeoutSeconds: 3600 },
      allowed: async (r) => {
        expect(r.status).toBe(202);
        const { jobId } = r.body;
        cleanups.push(() => settleJob(jobId));
        expect(r.headers.get('location')).toBe(`/api/v1/jobs/${jobId}`);
        expect(await jobEventsOf(jobId)).toEqual([{ type: 'jobs.JobRequested', data: expect.objectContaining({ jobId, hostname: AGENT_HOST, kind: 'discover' }) }]);
      },
    }),
    // The fence cells' own host, reported first; each cell leaves it unfenced for the next.
    'POST /api/v1/hosts/{host}/fence': async () => {
      expect((await asAdmin('PUT', `/api/v1/hosts/${FENCE_HOST}/report`, hostReportBody(3))).status).toBe(200);
      // A refused unfence cell may have left it fenced (409 INVENTORY.HOST_NOT_FENCED when it is not).
      expect([200, 409]).toContain((await asAdmin('POST', `/api/v1/hosts/${FENCE_HOST}/unfence`)).status);
      return {
        path: `/api/v1/hosts/${FENCE_HOST}/fence`,
        body: { reason: 'policy matrix' },
        allowed: async (r) => {
          expect([r.status, r.body.fenced, r.body.appended]).toEqual([200, true, 1]);
          expect((await asAdmin('POST', `/api/v1/hosts/${FENCE_HOST}/unfence`)).status).toBe(200);
        },
      };
    },
    'POST /api/v1/hosts/{host}/unfence': async () => {
      expect((await asAdmin('PUT', `/api/v1/hosts/${FENCE_HOST}/report`, hostReportBody(3))).status).toBe(200);
      expect((await asAdmin('POST', `/api/v1/hosts/${FENCE_HOST}/fence`, { reason: 'policy matrix' })).status).toBe(200);
      return {
        path: `/api/v1/hosts/${FENCE_HOST}/unfence`,
        allowed: (r) => expect([r.status, r.body.fenced, r.body.appended]).toEqual([200, false, 1]),
      };
    },
    // A provisioning of the agent's host; undone after the cell (cancelled, its waiting probe failed), so it ends compensated.
    'POST /api/v1/hosts/{host}/provision': () => ({
      path: `/api/v1/hosts/${AGENT_HOST}/provision`,
      body: { shell: standingBitstream, vfs: 1 },
      allowed: async (r) => {
        expect([r.status, r.headers.get('location')]).toEqual([202, `/api/v1/workflows/provision/${r.body.workflowId}`]);
        cleanups.push(() => stopProvisioning(r.body.workflowId));
      },
    }),
    // No job waits for the host, so the poll answers at once with none and dispatches (appends) nothing.
    'GET /api/v1/hosts/{host}/jobs/next?waitSeconds=0': async ({ scope }) => {
      const host = await withoutWaitingJobs(await hostOf(scope));
      return { path: `/api/v1/hosts/${host}/jobs/next?waitSeconds=0`, allowed: (r) => expect([r.status, r.body]).toEqual([200, { jobs: [] }]) };
    },
    // A fresh job of the agent's host or another; a result is taken for a job still requested (an admin settling it, say).
    'POST /api/v1/jobs/{jobId}/result': async ({ scope, unique }) => {
      const jobId = await createJob(await hostOf(scope));
      const evidence = { devices: Number(unique) };
      return {
        path: `/api/v1/jobs/${jobId}/result`,
        body: { outcome: 'completed', evidence },
        allowed: async (r) => {
          expect([r.status, r.body]).toEqual([200, { jobId, state: 'completed', position: expect.any(Number) }]);
          expect((await jobEventsOf(jobId)).at(-1)).toEqual({ type: 'jobs.JobCompleted', data: expect.objectContaining({ jobId, evidence }) });
        },
      };
    },
    'GET /api/v1/jobs': () => ({
      path: `/api/v1/jobs?hostname=${AGENT_HOST}&kind=install-driver`,
      headers: jobsFresh(),
      allowed: (r) => expect(r.body.items.map((job: { jobId: string }) => job.jobId)).toContain(standingJob),
    }),
    'GET /api/v1/reactors': () => ({
      path: '/api/v1/reactors',
      allowed: (r) => expect(r.body.items).toContainEqual(expect.objectContaining({ name: 'nova-notifier' })),
    }),
    'GET /api/v1/reactors/{name}/parked': () => ({
      path: '/api/v1/reactors/nova-notifier/parked',
      allowed: (r) => expect(r.body).toMatchObject({ reactor: 'nova-notifier', items: expect.any(Array) }),
    }),
    'POST /api/v1/reactors/{name}/parked/{position}/retry': async () => {
      // A parked event the log does not have: the retry runs, fails again, and it stays parked.
      const position = 1_000_000_000 + ++counter;
      const at = new Date().toISOString();
      await ledger.app.get<SqlDatabase>(READ_MODEL_DB).transaction((tx) =>
        parkEvent(tx, { reactor: 'nova-notifier', position, eventId: randomUUID(), type: 'allocation.ArqBound', stream: 'arq-x', error: 'e', attempts: 5, firstFailedAt: at, lastFailedAt: at }),
      );
      return {
        path: `/api/v1/reactors/nova-notifier/parked/${position}/retry`,
        allowed: (r) => expect(r.body).toMatchObject({ reactor: 'nova-notifier', position, outcome: 'failed' }),
      };
    },
    'POST /graphql (hosts)': () => ({
      path: '/graphql',
      body: { query: '{ hosts { edges { node { hostname } } } }' },
      allowed: (r) => expect(JSON.stringify(r.body.data)).toContain(AGENT_HOST),
    }),
    'POST /graphql (acceleratorRequest)': ({ project }) => ({
      path: '/graphql',
      body: { query: `{ acceleratorRequest(uuid: "${standingArqs[project]}") { uuid projectId } }` },
      allowed: (r) => expect(r.body).toEqual({ data: { acceleratorRequest: { uuid: standingArqs[project], projectId: project } } }),
      hidden: (r) => expect([r.status, r.body]).toEqual([200, { data: { acceleratorRequest: null } }]),
    }),
    'POST /graphql (quota)': ({ project }) => ({
      path: '/graphql',
      body: { query: `{ quota(project: "${project}") { project limits } }` },
      allowed: (r) => {
        expect(r.body.data.quota.project).toBe(project);
        if (project === PROJECT_A || project === PROJECT_B) expect(r.body.data.quota.limits).toEqual(FIXTURE_LIMITS);
      },
    }),
    'POST /graphql (workflows)': () => ({
      path: '/graphql',
      headers: workflowsFresh(),
      body: { query: '{ workflows(name: "policy_hold") { edges { node { name id status } } } }' },
      allowed: (r) => expect(r.body.data.workflows.edges.map((edge: { node: unknown }) => edge.node)).toContainEqual({ name: 'policy_hold', id: 'standing', status: 'running' }),
    }),
    'GET /graphql (deviceProfiles)': () => ({
      path: `/graphql?query=${encodeURIComponent('{ deviceProfiles { edges { node { name } } } }')}`,
      allowed: (r) => expect(r.body.data.deviceProfiles.edges).toContainEqual({ node: { name: PROFILE } }),
    }),
    'GET /api/v1/workflows': () => ({
      path: '/api/v1/workflows?name=policy_hold',
      headers: workflowsFresh(),
      allowed: (r) => expect(r.body.items).toContainEqual(expect.objectContaining({ name: 'policy_hold', id: 'standing', status: 'running' })),
    }),
    'GET /api/v1/workflows/runtime': () => ({
      path: '/api/v1/workflows/runtime',
      allowed: (r) => expect(r.body.items.map((item: { name: string }) => item.name).sort()).toEqual(['workflow:bind', 'workflow:policy_fail', 'workflow:policy_hold', 'workflow:provision', 'workflow:reclaim']),
    }),
    'GET /api/v1/workflows/{name}/{id}': () => ({
      path: '/api/v1/workflows/policy_hold/standing',
      headers: workflowsFresh(),
      allowed: (r) => expect(r.body).toMatchObject({ name: 'policy_hold', id: 'standing', status: 'running', currentStep: 'wait' }),
    }),
    // A running instance per cell (cancel records an input; a refusal records nothing).
    'POST /api/v1/workflows/{name}/{id}/cancel': async ({ unique }) => ({
      path: `/api/v1/workflows/policy_hold/${await startPolicyWorkflow('policy_hold', `cancel-${unique}`, 'running')}/cancel`,
      body: { reason: 'policy matrix' },
      allowed: (r) => expect([r.status, r.body.position]).toEqual([202, expect.any(Number)]),
    }),
    'POST /api/v1/workflows/{name}/{id}/retry': async ({ unique }) => ({
      path: `/api/v1/workflows/policy_fail/${await startPolicyWorkflow('policy_fail', `retry-${unique}`, 'failed')}/retry`,
      allowed: (r) => expect([r.status, r.body.position]).toEqual([202, expect.any(Number)]),
    }),
    'POST /api/v1/bitstreams': ({ unique }) => ({
      path: '/api/v1/bitstreams',
      body: signedImage(`cell-${unique}`),
      allowed: (r) => expect([r.status, r.body.signature.verdict]).toEqual([201, 'valid']),
    }),
    'GET /api/v1/bitstreams': () => ({
      path: '/api/v1/bitstreams',
      headers: bitstreamsFresh(),
      allowed: (r) => expect(r.body.map((b: { bitstreamId: string }) => b.bitstreamId)).toContain(standingBitstream),
    }),
    'GET /api/v1/bitstreams/{uuid}': () => ({
      path: `/api/v1/bitstreams/${standingBitstream}`,
      headers: bitstreamsFresh(),
      allowed: (r) => expect(r.body).toMatchObject({ bitstreamId: standingBitstream, state: 'registered' }),
    }),
    'GET /api/v1/bitstreams/{uuid}/content': () => ({
      path: `/api/v1/bitstreams/${standingBitstream}/content`,
      headers: bitstreamsFresh(),
      allowed: (r) => expect(r.body).toBe('policy-matrix image standing'),
    }),
    'POST /api/v1/bitstreams/{uuid}/retire': async ({ unique }) => ({
      path: `/api/v1/bitstreams/${await registerImage(`retire-${unique}`)}/retire`,
      body: { reason: 'policy matrix' },
      allowed: (r) => expect([r.status, r.body.appended]).toEqual([200, 1]),
    }),
    'POST /api/v1/signing-keys': () => ({
      path: '/api/v1/signing-keys',
      body: { publicKeyPem: publicPem(generateKeyPairSync('ed25519').publicKey) },
      allowed: (r) => expect([r.status, r.body.appended, r.body.algorithm]).toEqual([200, 1, 'ed25519']),
    }),
    'GET /api/v1/signing-keys': () => ({
      path: '/api/v1/signing-keys',
      headers: bitstreamsFresh(),
      allowed: (r) => expect(r.body.map((k: { publicKeyPem: string }) => k.publicKeyPem)).toContain(publicPem()),
    }),
    'POST /api/v1/signing-keys/{keyId}/revoke': async () => {
      const trusted = await asAdmin('POST', '/api/v1/signing-keys', { publicKeyPem: publicPem(generateKeyPairSync('ed25519').publicKey) });
      return { path: `/api/v1/signing-keys/${trusted.body.keyId}/revoke`, allowed: (r) => expect([r.status, r.body.appended]).toEqual([200, 1]) };
    },
    'GET /api/v1/devices/{uuid}/provenance': () => ({
      path: `/api/v1/devices/${fpgaDevice}/provenance`,
      allowed: (r) => expect(r.body).toEqual({ deviceUuid: fpgaDevice, loads: [] }),
    }),
    // A tenant sees its own project's use of the device only; the operator every project's.
    'GET /api/v1/devices/{uuid}/tenancy': () => ({
      path: `/api/v1/devices/${fpgaDevice}/tenancy`,
      allowed: (r, caller) => {
        expect(r.body.deviceUuid).toBe(fpgaDevice);
        if (caller !== 'admin') expect(r.body.tenancies.filter((t: { projectId: string }) => t.projectId !== projectOf(caller))).toEqual([]);
      },
    }),
    'GET /api/v1/devices/{uuid}/timeline': () => ({
      path: `/api/v1/devices/${fpgaDevice}/timeline`,
      allowed: (r, caller) => {
        expect(r.body.deviceUuid).toBe(fpgaDevice);
        if (caller !== 'admin') expect(r.body.entries.filter((e: { projectId: string }) => e.projectId !== projectOf(caller))).toEqual([]);
        else expect(r.body.entries.map((e: { type: string }) => e.type)).toContain('inventory.DeviceDiscovered');
      },
    }),
    // A tenant's usage report covers its own project only, and says so.
    'GET /api/v1/usage': () => ({
      path: `/api/v1/usage?from=0&to=${encodeURIComponent(new Date().toISOString())}`,
      allowed: (r, caller) => {
        expect(r.body).toMatchObject({ kind: 'ledger.UsageReport', groupBy: 'project', signature: expect.any(String) });
        if (caller !== 'admin') expect([r.body.project, r.body.rows.filter((row: { group: string }) => row.group !== projectOf(caller))]).toEqual([projectOf(caller), []]);
      },
    }),
    'GET /api/v1/audit/health-holders': () => ({
      path: '/api/v1/audit/health-holders',
      allowed: (r, caller) => {
        if (caller !== 'admin') expect(r.body.reports.filter((report: { projectId: string }) => report.projectId !== projectOf(caller))).toEqual([]);
      },
    }),
    'GET /api/v1/audit/verify': () => ({
      path: '/api/v1/audit/verify',
      allowed: (r) => expect(r.body).toMatchObject({ ok: true, checked: expect.any(Number) }),
    }),
    'GET /api/v1/jobs/{uuid}': () => ({
      path: `/api/v1/jobs/${standingJob}`,
      headers: jobsFresh(),
      allowed: (r) =>
        expect(r.body).toMatchObject({ jobId: standingJob, hostname: AGENT_HOST, kind: 'install-driver', state: 'completed', evidence: DRIVER_EVIDENCE }),
    }),
  };

  beforeAll(async () => {
    // A Nova nobody listens on: the Nova notifier reactor runs (and retries), so its routes have a reactor to show.
    ledger = await startTestLedger({ LEDGER_NOVA_URL: 'http://127.0.0.1:9/v2.1' }, POLICY_WORKFLOWS);
    store = ledger.app.get<EventStore>(EVENT_STORE);
    await startPolicyWorkflow('policy_hold', 'standing', 'running');
    rootHeaders = { 'x-auth-token': ledger.adminToken, 'x-service-token': ledger.token(SERVICE_USER) };
    const agent = ledger.token({ user: `agent:${AGENT_HOST}`, project: null, roles: ['agent'], host: AGENT_HOST });
    const report = await ledger.request('PUT', `/api/v1/hosts/${AGENT_HOST}/report`, { token: agent, body: hostReportBody(1) });
    expect(report.status).toBe(200);
    const fresh = { 'x-ledger-min-position': String(report.body.position) };
    const deployables = (await ledger.request('GET', `/api/v1/deployables?hostname=${AGENT_HOST}`, { token: ledger.adminToken, headers: fresh })).body.items;
    const fpga = deployables.find((d: { resourceClass: string }) => d.resourceClass === 'FPGA');
    [fpgaRp, fpgaDevice, fpgaDeployable] = [fpga.rpUuid, fpga.deviceUuid, fpga.uuid];
    spareGpu = deployables.filter((d: { resourceClass: string }) => d.resourceClass === 'PGPU').at(-1).deviceUuid;

    const profile = await asAdmin('POST', '/v2/device_profiles', [{ name: PROFILE, groups: [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }] }]);
    expect(profile.status).toBe(201);
    profileUuid = profile.body.uuid;
    for (const project of [PROJECT_A, PROJECT_B]) {
      expect((await asAdmin('PUT', `/api/v1/quotas/${project}`, { limits: FIXTURE_LIMITS })).status).toBe(200);
    }
    for (const project of [PROJECT_A, PROJECT_B, 'admin', 'service']) standingArqs[project] = await createArq(project);

    // The agent's first heartbeat: jobs are taken only for a host whose agent runs (JOB.AGENT_UNAVAILABLE otherwise).
    expect((await ledger.request('POST', `/api/v1/hosts/${AGENT_HOST}/heartbeat`, { token: agent, body: heartbeatBody(0) })).status).toBe(200);
    const install = await asAdmin('POST', `/api/v1/hosts/${AGENT_HOST}/jobs`, { kind: 'install-driver', params: { driver: DRIVER } });
    expect(install.status).toBe(202);
    standingJob = install.body.jobId;
    const polled = await ledger.request('GET', `/api/v1/hosts/${AGENT_HOST}/jobs/next?waitSeconds=0`, { token: agent, headers: { 'x-agent-boot': randomUUID() } });
    expect(polled.body.jobs.map((job: { jobId: string }) => job.jobId)).toEqual([standingJob]);
    const installed = await ledger.request('POST', `/api/v1/jobs/${standingJob}/result`, { token: agent, body: { outcome: 'completed', evidence: DRIVER_EVIDENCE } });
    expect(installed.status).toBe(200);
    standingJobPosition = installed.body.position;
    expect((await asAdmin('POST', '/api/v1/signing-keys', { publicKeyPem: publicPem(), label: 'policy matrix' })).status).toBe(200);
    standingBitstream = await registerImage('standing');
    standingBitstreamPosition = await store.headPosition();
    cellCleanups.length = 0; // the standing requests stay for the whole file
  });

  afterEach(async () => {
    await undo(cellCleanups);
    if (reusable?.spent) await releaseTarget();
  });

  afterAll(() => ledger?.close());

  it('has a row for every route the app serves, and serves every route it has a row for', () => {
    // Mounted on Fastify directly, not by a controller: the native document, and GraphQL (Mercurius's routes).
    const served = new Set<string>(['GET /api/v1/openapi.json', 'GET /graphql', 'POST /graphql']);
    for (const module of ledger.app.get(ModulesContainer).values()) {
      for (const { metatype } of module.controllers.values()) {
        if (!metatype) continue;
        const base = String(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
        for (const name of Object.getOwnPropertyNames(metatype.prototype).filter((own) => own !== 'constructor')) {
          const handler = metatype.prototype[name];
          const path = typeof handler === 'function' ? Reflect.getMetadata(PATH_METADATA, handler) : undefined;
          if (path === undefined) continue;
          const full = `/${[base, String(path)].filter((part) => part && part !== '/').join('/')}`.replace(/\/+/g, '/');
          served.add(`${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler)]} ${full.replace(/:[^/]+/g, '{}')}`);
        }
      }
    }
    expect(new Set(POLICY.map(([endpoint]) => routeOf(endpoint)))).toEqual(served);
    expect(Object.keys(CALLS).sort()).toEqual([...new Set(POLICY.map(([endpoint]) => endpoint))].sort());
  });

  it.each(cells)('$title', async ({ endpoint, scope, caller, outcome }) => {
    const project = scope === 'other' ? PROJECT_B : (projectOf(caller) ?? PROJECT_A);
    const call = await targetOf(endpoint, { scope, project, unique: `${++counter}` });
    const method = methodOf(endpoint);
    const before = await store.headPosition();
    const response = await send(method, call.path, { ...credentialsOf(ledger, caller), ...call.headers }, call.body);

    if (outcome.kind === 'allowed') {
      expect(response.status).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(300);
      await call.allowed?.(response, caller);
      if (method === 'GET') expect(await store.headPosition()).toBe(before);
      return;
    }
    if (outcome.kind === 'hidden') {
      if (!call.hidden) throw new Error(`${endpoint} has no meaning for a hidden target`);
      await call.hidden(response, caller);
    } else {
      expectRefusal(response, outcome);
      if (call.path.startsWith('/v2')) expect(response.body.error_message).toEqual(expect.any(String));
      else if (call.path.startsWith('/graphql')) {
        expect(Object.values(response.body.data ?? {}).filter((value) => value !== null)).toEqual([]);
        expect(response.body.errors[0].extensions.code).toBe(response.headers.get('x-error-code'));
      } else expect(response.body.code).toBe(response.headers.get('x-error-code'));
    }
    if (response.status >= 400) expect(Object.keys(response.body ?? {}).filter((key) => DATA_KEYS.has(key))).toEqual([]);
    // A refusal, or another project's target, changes nothing.
    // The job-facts reactor may still be recording an earlier cell's job (its own write, not this call's).
    const { events: appended } = await store.readAll({ after: before, max: 10 });
    expect(appended.filter((event) => !JOB_FACTS.has(event.type)).map((event) => `${event.type} on ${event.stream}`)).toEqual([]);
    reusable!.spent = false;
  });
});
