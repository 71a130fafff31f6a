import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@ledger/eventstore';
import type { Principal } from '@ledger/auth';
import { hostReportBody } from '../support/fleet';
import { checkAnswer, closeFuzzConnections, documentedCodes, send } from '../support/fuzz-oracle';
import { describeRequest, type FuzzRequest, operationsOf, type Operation, type PrincipalName, requestArbitrary } from '../support/fuzz-requests';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

/** Requests per run: 2,000 by default (CI, about a minute); a person sets FUZZ_REQUESTS=100000. */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
/** The seed of the whole run: printed, and set with FUZZ_SEED to replay a failure (the same requests in the same order). */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
/** Longer than any answer may take: a min-position wait that cannot be met gives up after 5 s, and the fuzzer asks only for reached positions. */
const ANSWER_BOUND_MS = 8000;
const BATCH = 250;
/** Jest's bound on the whole run: 2,000 requests take about 10 s here; 100,000 about ten minutes. */
const RUN_TIMEOUT_MS = 60_000 + REQUESTS * 50;

/** The fuzzer's callers; `operator` holds every role but the agent's, `agent` is the agent of the host the suite reports, `garbage` a token that is none. */
const PRINCIPALS: Record<Exclude<PrincipalName, 'none' | 'garbage' | 'bearer-admin'>, Principal> = {
  operator: { user: 'fuzz-operator', project: 'fuzz-p1', roles: ['admin', 'member', 'service'] },
  admin: { user: 'fuzz-admin', project: 'admin', roles: ['admin'] },
  member: { user: 'fuzz-member', project: 'fuzz-p1', roles: ['member'] },
  tenant: { user: 'fuzz-tenant', project: 'fuzz-p2', roles: ['member'] },
  service: { user: 'fuzz-nova', project: 'fuzz-p1', roles: ['member', 'service'] },
  agent: { user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' },
};
const FUZZ_USERS = new Set(Object.values(PRINCIPALS).map((principal) => principal.user));

/**
 * Issue 11: schema-aware fuzzing of every operation of both OpenAPI
 * documents, with hostile shapes mixed in. Every answer must come within
 * the bound, under 500, and a 4xx must carry a code docs/errors.md lists
 * with that status and append nothing unless the docs list a trace for it.
 */
describe('fuzz: every documented operation, valid-ish and hostile requests', () => {
  let ledger: TestLedger;
  let store: EventStore;
  let operations: Operation[];
  let known: string[];
  const tokens = {} as Record<PrincipalName, Record<string, string>>;

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_LOG_LEVEL: 'error' });
    store = ledger.app.get<EventStore>(EVENT_STORE);
    for (const [name, principal] of Object.entries(PRINCIPALS)) tokens[name as PrincipalName] = { 'x-auth-token': ledger.token(principal) };
    tokens.none = {};
    tokens.garbage = { 'x-auth-token': 'not.a.token' };
    tokens['bearer-admin'] = { authorization: `Bearer ${ledger.adminToken}` };
    known = await seedLedger(ledger);
    const native = (await ledger.request('GET', '/api/v1/openapi.json')).body;
    const v2 = (await ledger.request('GET', '/v2/openapi.json')).body;
    operations = [...operationsOf('native', native), ...operationsOf('v2', v2)];
  });
  afterAll(async () => {
    closeFuzzConnections();
    await ledger?.close();
  });

  it(`answers ${REQUESTS} fuzzed requests (seed ${SEED}) under 500, within the bound, with documented codes, and 4xx record nothing`, async () => {
    const codes = documentedCodes(readFileSync(join(__dirname, '../../docs/errors.md'), 'utf8'));
    expect(codes.get('REQUEST.INVALID')).toBe(400);
    const arbitrary = fc.oneof(...operations.map((operation) => requestArbitrary(operation, known).map((request) => ({ request, api: operation.api }))));
    const failures: string[] = [];
    const statuses = new Map<string, number>();
    const perOperation = new Map<string, number>();
    let sent = 0;
    for (let batch = 0; sent < REQUESTS; batch++) {
      const requests = fc.sample(arbitrary, { seed: SEED + batch, numRuns: Math.min(BATCH, REQUESTS - sent) });
      for (const { request, api } of requests) {
        const index = sent++;
        const { outcome, appended } = await sendAndWatch(request);
        const failure = checkAnswer(outcome, api, codes, appended);
        if (failure) failures.push(`#${index} (batch ${batch}): ${failure} ← ${describeRequest(request)}`);
        const status = outcome.kind === 'answer' ? `${outcome.status} ${outcome.headers['x-error-code'] ?? ''}`.trim() : outcome.kind;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (outcome.kind === 'answer' && outcome.status < 300) perOperation.set(request.operation, (perOperation.get(request.operation) ?? 0) + 1);
      }
    }
    const summary = [...statuses].sort((a, b) => b[1] - a[1]).map(([status, count]) => `${count} × ${status}`);
    const neverSucceeded = operations.map((operation) => `${operation.method} ${operation.template}`).filter((operation) => !perOperation.has(operation));
    process.stderr.write(`fuzz: ${sent} requests, seed ${SEED} (replay: FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS}), ${failures.length} failing\n  ${summary.join('\n  ')}\n  no 2xx for: ${neverSucceeded.join(', ') || 'none'}\n`);
    expect(failures.slice(0, 30)).toEqual([]);
    // The fuzzer reaches past authentication and validation: a good share of its requests are served.
    const served = [...perOperation.values()].reduce((total, count) => total + count, 0);
    expect(served).toBeGreaterThan(sent / 20);
  }, RUN_TIMEOUT_MS);

  /** Sends a request and reads back what it appended: events of its correlation id (or, when it sent its own, of a fuzz caller). */
  async function sendAndWatch(request: FuzzRequest) {
    const correlationId = crypto.randomUUID();
    const ownCorrelation = 'x-correlation-id' in request.headers;
    const headers = { 'x-correlation-id': correlationId, ...request.headers, ...tokens[request.principal] };
    const before = await store.headPosition();
    const outcome = await send(ledger.url, request.method, request.path, headers, request.body, ANSWER_BOUND_MS);
    let appended: RecordedEvent[] = [];
    if (outcome.kind === 'answer' && outcome.status >= 400 && (await store.headPosition()) !== before) {
      const { events } = await store.readAll({ after: before });
      appended = events.filter((event) => (ownCorrelation ? FUZZ_USERS.has(event.metadata.actor.user) : event.metadata.correlationId === correlationId));
    }
    return { outcome, appended };
  }
});

/**
 * Gives the fuzzer something to find: a reported host, a device profile,
 * accelerator requests of two projects, an attribute. Returns the ids and
 * names it made, for path parameters and bodies.
 */
async function seedLedger(ledger: TestLedger): Promise<string[]> {
  const agent = ledger.token(PRINCIPALS.agent);
  const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 2) });
  expect(report.status).toBe(200);
  const atReport = { 'x-ledger-min-position': String(report.body.position) };
  const devices = (await ledger.request('GET', '/api/v1/devices', { token: ledger.adminToken, headers: atReport })).body.items;
  const deployables = (await ledger.request('GET', '/api/v1/deployables', { token: ledger.adminToken, headers: atReport })).body.items;
  const profile = await ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name: 'fuzz-fpga', groups: [{ 'resources:FPGA': '1' }] }] });
  expect(profile.status).toBe(201);
  const arqs: string[] = [];
  for (const principal of [PRINCIPALS.service, PRINCIPALS.tenant]) {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: ledger.token(principal), body: { device_profile_name: 'fuzz-fpga' } });
    expect(created.status).toBe(201);
    arqs.push(...created.body.arqs.map((arq: { uuid: string }) => arq.uuid));
  }
  const attributes = (await ledger.request('GET', '/v2/attributes', { token: ledger.adminToken })).body.attributes;
  const reactors = (await ledger.request('GET', '/api/v1/reactors', { token: ledger.adminToken })).body;
  return [
    'compute-1', 'compute-2', 'fuzz-p1', 'fuzz-p2', 'admin', 'fuzz-fpga', 'FPGA', 'latest', '1', '0',
    profile.body.uuid,
    ...arqs,
    ...devices.map((device: any) => device.uuid),
    ...deployables.flatMap((deployable: any) => [deployable.uuid, deployable.rpUuid]),
    ...attributes.map((attribute: any) => attribute.uuid),
    ...(Array.isArray(reactors?.items) ? reactors.items.map((reactor: any) => reactor.name) : []),
  ].filter((value): value is string => typeof value === 'string');
}
