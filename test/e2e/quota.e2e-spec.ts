import { Client } from 'pg';
import { CommandBus } from '@nestjs/cqrs';
import { type CommandContext, EVENT_STORE, type EventStore, WrongExpectedVersionError } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import type { ProcessorRuntime, SqlDatabase } from '@ledger/processing';
import { QuotaQueries } from '@ledger/projections/quota';
import { ReleaseQuotaCommand, ReserveQuotaCommand } from '@ledger/quota';
import { PROCESSOR_RUNTIME, READ_MODEL_DB } from '../../apps/ledger/src/infrastructure/tokens';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { describeWithService, postgresUnavailable, postgresUrl } from '../support/services';

const LIMIT = 10;
const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: '0196b3c2-0000-7000-8000-00000000e2e0' };

const reserveOne = (project: string, consumerId: string) =>
  new ReserveQuotaCommand({ project, consumers: [{ consumerId, resources: { FPGA: 1 } }] }, context);

/** Runs every reservation at once; counts successes and the codes of refusals. */
async function race(runs: Promise<unknown>[]): Promise<{ ok: number; refused: Record<string, number> }> {
  const settled = await Promise.allSettled(runs);
  const refused: Record<string, number> = {};
  for (const result of settled) {
    if (result.status !== 'rejected') continue;
    const code = String(result.reason?.code ?? result.reason);
    refused[code] = (refused[code] ?? 0) + 1;
  }
  return { ok: settled.filter((result) => result.status === 'fulfilled').length, refused };
}

/** Counts the appends of `ledger` that lost a race to another writer. */
function countConflicts(ledger: TestLedger): () => number {
  const store = ledger.app.get<EventStore>(EVENT_STORE);
  const append = store.append.bind(store);
  let conflicts = 0;
  jest.spyOn(store, 'append').mockImplementation((...args) =>
    append(...args).catch((error: unknown) => {
      if (error instanceof WrongExpectedVersionError) conflicts++;
      throw error;
    }),
  );
  return () => conflicts;
}

const headOf = (ledger: TestLedger) => ledger.app.get<EventStore>(EVENT_STORE).headPosition();

/** Limits FPGA to LIMIT in `project`, then races 64 one-FPGA reservations through the command buses, alternating. */
async function raceReservations(ledgers: TestLedger[], project: string) {
  const put = await ledgers[0].request('PUT', `/api/v1/quotas/${project}`, { token: ledgers[0].adminToken, body: { limits: { FPGA: LIMIT } } });
  expect(put.status).toBe(200);
  const buses = ledgers.map((ledger) => ledger.app.get(CommandBus));
  return race(Array.from({ length: 64 }, (_, i) => buses[i % buses.length].execute(reserveOne(project, `arq-${i}`))));
}

async function expectExactlyTheLimit(ledgers: TestLedger[], project: string): Promise<void> {
  expect(await raceReservations(ledgers, project)).toEqual({ ok: LIMIT, refused: { 'QUOTA.EXCEEDED': 64 - LIMIT } });
  for (const ledger of ledgers) {
    const got = await ledger.request('GET', `/api/v1/quotas/${project}`, { token: ledger.adminToken });
    expect(got.body).toEqual({ project, limits: { FPGA: LIMIT }, usage: { FPGA: LIMIT } });
  }
  const events = await ledgers[0].app.get<EventStore>(EVENT_STORE).readStream(`quota-${project}`);
  expect(events.filter((event) => event.type === 'quota.Reserved')).toHaveLength(LIMIT);
}

describe('quota over HTTP (embedded SQLite)', () => {
  let ledger: TestLedger;

  beforeAll(async () => {
    ledger = await startTestLedger();
  });
  afterAll(() => ledger.close());

  const put = (project: string, body: unknown, token = ledger.adminToken) => ledger.request('PUT', `/api/v1/quotas/${project}`, { token, body });
  const get = (project: string, token = ledger.adminToken) => ledger.request('GET', `/api/v1/quotas/${project}`, { token });

  it('sets limits idempotently, removes one with null, and reports usage', async () => {
    const first = await put('p1', { limits: { FPGA: 4, 'capacity:memoryGiB': 160, PGPU: 2 } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      project: 'p1',
      limits: { FPGA: 4, 'capacity:memoryGiB': 160, PGPU: 2 },
      usage: {},
      appended: 3,
      position: await headOf(ledger),
    });

    const again = await put('p1', { limits: { FPGA: 4, PGPU: null } });
    expect(again.body).toMatchObject({ limits: { FPGA: 4, 'capacity:memoryGiB': 160 }, appended: 1 });
    expect((await put('p1', { limits: { FPGA: 4, PGPU: null } })).body).toMatchObject({ appended: 0, position: null });

    await ledger.app.get(CommandBus).execute(
      new ReserveQuotaCommand({ project: 'p1', consumers: [{ consumerId: 'arq-a', resources: { FPGA: 1, 'capacity:memoryGiB': 80 } }] }, context),
    );
    expect((await get('p1')).body).toEqual({ project: 'p1', limits: { FPGA: 4, 'capacity:memoryGiB': 160 }, usage: { FPGA: 1, 'capacity:memoryGiB': 80 } });

    // Lowering below usage is accepted; the reservation stays.
    expect((await put('p1', { limits: { FPGA: 0 } })).body).toMatchObject({ limits: { FPGA: 0 }, usage: { FPGA: 1 }, appended: 1 });
    await expect(ledger.app.get(CommandBus).execute(reserveOne('p1', 'arq-b'))).rejects.toMatchObject({ code: 'QUOTA.EXCEEDED' });
    await ledger.app.get(CommandBus).execute(new ReleaseQuotaCommand({ project: 'p1', consumerIds: ['arq-a'] }, context));
    expect((await get('p1')).body.usage).toEqual({});
  });

  it('lets members and readers see their own project only, and only admins change limits', async () => {
    const member = ledger.token({ user: 'alice', project: 'p1', roles: ['member'] });
    const reader = ledger.token({ user: 'rita', project: 'p1', roles: ['reader'] });
    const outsider = ledger.token({ user: 'bob', project: 'p2', roles: ['manager'] });
    expect((await get('p1', member)).status).toBe(200);
    expect((await get('p1', reader)).body.project).toBe('p1');

    const foreign = await get('p1', outsider);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('QUOTA.PROJECT_FORBIDDEN');
    expect(foreign.headers.get('x-error-code')).toBe('QUOTA.PROJECT_FORBIDDEN');
    expect((await get('p2', outsider)).body).toEqual({ project: 'p2', limits: {}, usage: {} });

    const head = await headOf(ledger);
    expect((await put('p1', { limits: { FPGA: 99 } }, member)).body.code).toBe('AUTH.ROLE_REQUIRED');
    expect((await put('p2', { limits: { FPGA: 99 } }, outsider)).body.code).toBe('AUTH.ROLE_REQUIRED');
    expect((await ledger.request('GET', '/api/v1/quotas/p1')).status).toBe(401);
    expect((await ledger.request('GET', '/api/v1/quotas/p1', { token: ledger.token({ user: 'nova', project: 'service', roles: ['service'] }) })).status).toBe(403);
    expect(await headOf(ledger)).toBe(head);
  });

  it.each([
    ['an unknown resource', 'p1', { limits: { DPU: 1 } }, 400, 'QUOTA.INVALID'],
    ['a lower-case class', 'p1', { limits: { fpga: 1 } }, 400, 'QUOTA.INVALID'],
    ['a bad capacity name', 'p1', { limits: { 'capacity:9lives': 1 } }, 400, 'QUOTA.INVALID'],
    ['a negative limit', 'p1', { limits: { FPGA: -1 } }, 400, 'QUOTA.INVALID'],
    ['a fractional limit', 'p1', { limits: { FPGA: 0.5 } }, 400, 'QUOTA.INVALID'],
    ['a string limit', 'p1', { limits: { FPGA: '3' } }, 400, 'QUOTA.INVALID'],
    ['limits as an array', 'p1', { limits: [1] }, 400, 'REQUEST.INVALID'],
    ['no limits', 'p1', {}, 400, 'REQUEST.INVALID'],
    ['an unknown field', 'p1', { limits: { FPGA: 1 }, force: true }, 400, 'REQUEST.INVALID'],
    ['a malformed project id', 'p1%20x', { limits: { FPGA: 1 } }, 400, 'QUOTA.INVALID'],
    ['a project id of 65 characters', 'p'.repeat(65), { limits: { FPGA: 1 } }, 400, 'QUOTA.INVALID'],
  ])('refuses %s with a coded 4xx and records nothing', async (_, project, body, status, code) => {
    const head = await headOf(ledger);
    const response = await put(project, body);
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
    expect(await headOf(ledger)).toBe(head);
  });

  it('refuses a malformed project id on GET', async () => {
    expect((await get('bad%20project')).body.code).toBe('QUOTA.INVALID');
  });

  it(`lets exactly ${LIMIT} of 64 concurrent reservations through, and the projection agrees`, async () => {
    await expectExactlyTheLimit([ledger], 'race-sqlite');
    await ledger.app.get<ProcessorRuntime>(PROCESSOR_RUNTIME).waitForPosition(await headOf(ledger), { timeoutMs: 10_000 });
    const queries = new QuotaQueries(ledger.app.get<SqlDatabase>(READ_MODEL_DB));
    expect(await queries.getProject('race-sqlite')).toEqual({ project: 'race-sqlite', limits: { FPGA: LIMIT }, usage: { FPGA: LIMIT } });
    expect((await queries.listReservations()).filter((r) => r.project === 'race-sqlite')).toHaveLength(LIMIT);
  });
});

const schema = `quota_e2e_${process.pid}`;
describeWithService('PostgreSQL', postgresUnavailable())('quota reservations racing on PostgreSQL', () => {
  const env = { LEDGER_STORE: 'postgres', LEDGER_POSTGRES_URL: postgresUrl(), LEDGER_POSTGRES_SCHEMA: schema };
  let first: TestLedger;
  let second: TestLedger;

  beforeAll(async () => {
    first = await startTestLedger(env);
    // A scale-out replica: commands and API only, the first ledger runs the processors.
    second = await startTestLedger({ ...env, LEDGER_ROLES: 'api,conductor' });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    const client = new Client({ connectionString: postgresUrl() });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  });

  it(`lets exactly ${LIMIT} of 64 through in one ledger`, async () => {
    await expectExactlyTheLimit([first], 'race-one');
  });

  it(`lets exactly ${LIMIT} of 32 + 32 through across two ledgers on one database (the expected-version check)`, async () => {
    const conflicts = [first, second].map(countConflicts);
    await expectExactlyTheLimit([first, second], 'race-two');
    // Each process queues its own commands, so only the store's expected-version check kept the two apart.
    expect(conflicts.reduce((sum, count) => sum + count(), 0)).toBeGreaterThan(0);
  });
});
