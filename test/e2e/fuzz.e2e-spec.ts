import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@ledger/eventstore';
import type { Principal } from '@ledger/auth';
import { checkAnswer, closeFuzzConnections, documentedCodes, send } from '../support/fuzz-oracle';
import { describeRequest, type FuzzRequest, operationsOf, type Operation, type PrincipalName, requestArbitrary } from '../support/fuzz-requests';
import { fuzzSigning, seedFuzzTargets } from '../support/fuzz-seed';
import { OperationTally } from '../support/fuzz-tally';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

/** Requests per run: 2,000 by default (CI, about a minute); a person sets FUZZ_REQUESTS=100000. */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
/** The seed of the whole run: printed, and set with FUZZ_SEED to replay a failure (the same requests in the same order). */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
/** Longer than any answer may take: a min-position wait that cannot be met gives up after 5 s, and the fuzzer asks only for reached positions. */
const ANSWER_BOUND_MS = 8000;
/** Requests between two seedings of what the fuzzer builds on (fuzz-seed.ts). */
const BATCH = 250;
/**
 * The creates, binds and registrations everything else builds on: sent
 * three times as often as other operations, and they must keep reaching
 * 2xx up to the end of a run. A long run checks its last quarter, where a
 * fuzzer that uses up its state stops reaching them; a CI run is too short
 * for a quarter to say much, and checks the whole run.
 */
const BUILDING_OPERATIONS = ['POST /v2/accelerator_requests', 'PATCH /v2/accelerator_requests', 'PATCH /v2/accelerator_requests/{uuid}', 'POST /v2/device_profiles', 'POST /api/v1/bitstreams'];
const LONG_RUN = 10_000;
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
  const signing = fuzzSigning();
  const tokens = {} as Record<PrincipalName, Record<string, string>>;

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_LOG_LEVEL: 'error' });
    store = ledger.app.get<EventStore>(EVENT_STORE);
    for (const [name, principal] of Object.entries(PRINCIPALS)) tokens[name as PrincipalName] = { 'x-auth-token': ledger.token(principal) };
    tokens.none = {};
    tokens.garbage = { 'x-auth-token': 'not.a.token' };
    tokens['bearer-admin'] = { authorization: `Bearer ${ledger.adminToken}` };
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
    const failures: string[] = [];
    const statuses = new Map<string, number>();
    const tally = new OperationTally(operations.map((operation) => `${operation.method} ${operation.template}`));
    const lateFrom = Math.floor(REQUESTS * 0.75);
    let sent = 0;
    for (let batch = 0; sent < REQUESTS; batch++) {
      // Each batch builds on state seeded afresh, and aims at what the ledger holds now.
      const targets = await seedFuzzTargets(ledger, signing, [PRINCIPALS.service, PRINCIPALS.tenant, PRINCIPALS.operator]);
      const arbitrary = fc.oneof(
        ...operations.map((operation) => ({
          arbitrary: requestArbitrary(operation, targets).map((request) => ({ request, api: operation.api })),
          weight: BUILDING_OPERATIONS.includes(`${operation.method} ${operation.template}`) ? 3 : 1,
        })),
      );
      const requests = fc.sample(arbitrary, { seed: SEED + batch, numRuns: Math.min(BATCH, REQUESTS - sent) });
      for (const { request, api } of requests) {
        const index = sent++;
        const { outcome, appended } = await sendAndWatch(request);
        const failure = checkAnswer(outcome, api, codes, appended);
        if (failure) failures.push(`#${index} (batch ${batch}): ${failure} ← ${describeRequest(request)}`);
        const status = outcome.kind === 'answer' ? `${outcome.status} ${outcome.headers['x-error-code'] ?? ''}`.trim() : outcome.kind;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        tally.count(request.operation, outcome.kind === 'answer' && outcome.status < 300, index >= lateFrom);
      }
    }
    const summary = [...statuses].sort((a, b) => b[1] - a[1]).map(([status, count]) => `${count} × ${status}`);
    process.stderr.write(
      `fuzz: ${sent} requests, seed ${SEED} (replay: FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS}), ${failures.length} failing\n  ${summary.join('\n  ')}\n` +
        `share of 2xx per operation (whole run | last quarter):\n  ${tally.lines().join('\n  ')}\n`,
    );
    expect(failures.slice(0, 30)).toEqual([]);
    // The fuzzer reaches past authentication and validation: a good share of its requests are served.
    expect(tally.servedTotal()).toBeGreaterThan(sent / 20);
    const served = (operation: string) => (REQUESTS >= LONG_RUN ? tally.servedLate(operation) : tally.served(operation));
    expect(BUILDING_OPERATIONS.filter((operation) => served(operation) === 0)).toEqual([]);
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
