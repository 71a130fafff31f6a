import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { eventually } from '@ledger/processing/testing';
import { eventStoreOptions, loadLedgerConfig } from '@ledger/config';
import { openEventStore } from '@ledger/eventstore';
import { openPostgresSqlDatabase } from '@ledger/processing';
import { hostReportBody, hostname } from '../support/fleet';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';
import { logLines } from '../support/log-lines';
import { readModelsAgainstRebuild } from '../support/read-model-rebuild';
import { SCALE_OUT_REPLICAS } from '../support/scale-out';
import { withPostgresClient } from '../support/postgres-client';
import { describeWithService, postgresUnavailable, postgresUrl } from '../support/services';

const SECRET = 'scale-out-signing-key-0123456789abcdef';
const codec = new TokenCodec(SECRET);
const ADMIN = codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] });
/** Nova for tenant-a: the member's token with its service role. */
const NOVA = codec.issue({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
const FPGA_GROUPS = [{ 'resources:FPGA': '1' }];
const HOSTS_PER_ROUND = 6;
const FLOWS_PER_ROUND = 4;

// Four ledger processes on a 2-core machine, a failover that waits out a lease, and a rebuild of every read model.
jest.setTimeout(240_000);

/**
 * The scale-out the README documents, as separate OS processes on one
 * PostgreSQL: two API replicas (`api,conductor`) and two processor replicas
 * (`processors`). Host reports and Nova's create → bind → delete go through
 * both API replicas; the processor replica holding the leases is SIGKILLed
 * and the other takes over. Afterwards every read model equals a rebuild
 * from the log (so no event was skipped or applied twice), and no replica
 * logged an error.
 */
describeWithService('PostgreSQL', postgresUnavailable())('scale-out as processes: two API replicas and two processor replicas on one PostgreSQL', () => {
  const schema = `scale_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let dataDir: string;
  const replicas = new Map<string, LedgerProcess>();
  const envOf = (roles: string, instance: string) => ({
    LEDGER_STORE: 'postgres',
    LEDGER_POSTGRES_URL: postgresUrl(),
    LEDGER_POSTGRES_SCHEMA: schema,
    LEDGER_AUTH_SECRET: SECRET,
    // The replicas share the data directory as the compose file's replicas share their credentials volume.
    LEDGER_DATA_DIR: dataDir,
    LEDGER_ROLES: roles,
    LEDGER_INSTANCE_ID: instance,
    // A short lease, so the survivor takes over within seconds of the kill.
    LEDGER_PROCESSOR_LEASE_MS: '2000',
    // Lines at `log` too: the early API replica's job sweeper says at that level that it waits.
    LEDGER_LOG_LEVEL: 'log',
  });

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-scale-out-'));
  });
  afterAll(async () => {
    for (const replica of replicas.values()) await replica.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await withPostgresClient(postgresUrl(), (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  });

  it('serves through both API replicas, survives the kill of the lease holder, and every read model equals a rebuild', async () => {
    // An API replica may well start before any processors replica has prepared the read models: it is up, not ready,
    // and says why rather than failing on tables that do not exist yet.
    const [first, ...others] = SCALE_OUT_REPLICAS;
    const early = await startLedgerProcess(envOf(first.roles, first.instance), { upPath: '/healthz' });
    replicas.set(first.instance, early);
    const notReady = await fetch(`${early.url}/readyz`).then(async (response) => [response.status, ((await response.json()) as { checks: Record<string, unknown> }).checks.readModels]);
    expect(notReady).toEqual([503, { ok: false, detail: expect.stringMatching(/^waiting for a processors replica to prepare: .*inventory/) }]);
    const [native, cyborg] = [await call(early, 'GET', '/api/v1/hosts', ADMIN), await call(early, 'GET', '/v2/accelerator_requests', NOVA)];
    expect([native.status, native.body.code, cyborg.status, cyborg.headers.get('x-error-code')]).toEqual([503, 'READ_MODELS.NOT_PREPARED', 503, 'READ_MODELS.NOT_PREPARED']);
    // Its job timeout sweeper has had a go with no jobs table yet (it used to log `relation "jobs" does not exist`).
    await eventually(() => logLines(early.output()).some((line) => line.context === 'JobTimeoutSweeper'), 30_000);

    for (const { instance, roles } of others) replicas.set(instance, await startLedgerProcess(envOf(roles, instance)));
    await eventually(async () => (await fetch(`${early.url}/readyz`)).ok);
    const apis = [early, replicas.get('api-2') as LedgerProcess];

    const profile = await call(apis[0], 'POST', '/v2/device_profiles', ADMIN, [{ name: 'fpga-dp', groups: FPGA_GROUPS }]);
    expect(profile.status).toBe(201);
    await driveRound(apis, 0);

    const holder = await leaseHolder(schema);
    expect(['processors-1', 'processors-2']).toContain(holder);
    const survivor = holder === 'processors-1' ? 'processors-2' : 'processors-1';
    await (replicas.get(holder) as LedgerProcess).kill('SIGKILL');

    const head = await driveRound(apis, 1);
    // Reads through both API replicas wait for the projections to reach the head: the survivor must have taken over.
    for (const api of apis) await waitForProjections(api, head);
    expect(await leaseHolder(schema)).toBe(survivor);

    const differences = await readModelsOfSchemaAgainstRebuild(schema);
    expect(differences).toEqual([]);

    const logged = [...replicas.entries()].flatMap(([name, replica]) =>
      logLines(replica.output())
        .filter((line) => line.level === 'error' || line.level === 'fatal')
        .map((line) => `${name}: [${line.context}] ${line.msg}`),
    );
    expect(logged).toEqual([]);
  });
});

/**
 * One round of traffic through both API replicas in turn: host reports with
 * each host's own agent token, then Nova's create → bind → delete by
 * instance, each step on the other replica than the one before. Returns
 * the log's head position after the round.
 */
async function driveRound(apis: readonly LedgerProcess[], round: number): Promise<number> {
  let head = 0;
  const fpgaRps: string[] = [];
  for (let index = 0; index < HOSTS_PER_ROUND; index++) {
    const host = hostname(round * 100 + index);
    const agent = codec.issue({ user: `agent:${host}`, project: null, roles: ['agent'], host });
    const report = await call(apis[index % 2], 'PUT', `/api/v1/hosts/${host}/report`, agent, hostReportBody(index, 0));
    expect(report.status).toBe(200);
    head = Math.max(head, report.body.position ?? 0);
    const deployables = await call(apis[(index + 1) % 2], 'GET', `/api/v1/deployables?hostname=${host}`, ADMIN, undefined, head);
    expect(deployables.status).toBe(200);
    fpgaRps.push(deployables.body.items.find((deployable: { resourceClass: string }) => deployable.resourceClass === 'FPGA').rpUuid);
  }
  for (let flow = 0; flow < FLOWS_PER_ROUND; flow++) {
    const [first, second] = flow % 2 === 0 ? apis : [apis[1], apis[0]];
    const instance = `00000000-0000-4000-8000-${String(round * 100 + flow).padStart(12, '0')}`;
    const created = await call(first, 'POST', '/v2/accelerator_requests', NOVA, { device_profile_name: 'fpga-dp' });
    expect(created.status).toBe(201);
    const uuid = created.body.arqs[0].uuid;
    const hostIndex = flow % HOSTS_PER_ROUND;
    const bind = {
      [uuid]: [
        { op: 'add', path: '/hostname', value: hostname(round * 100 + hostIndex) },
        { op: 'add', path: '/device_rp_uuid', value: fpgaRps[hostIndex] },
        { op: 'add', path: '/instance_uuid', value: instance },
      ],
    };
    expect((await call(second, 'PATCH', '/v2/accelerator_requests', NOVA, bind)).status).toBe(202);
    const resolved = await call(first, 'GET', `/v2/accelerator_requests?instance=${instance}&bind_state=resolved`, NOVA);
    expect([resolved.status, resolved.body?.arqs?.[0]?.state]).toEqual([200, 'Bound']);
    expect((await call(second, 'DELETE', `/v2/accelerator_requests?instance=${instance}`, NOVA)).status).toBe(204);
  }
  const ready = await fetch(`${apis[0].url}/readyz`).then((response) => response.json() as Promise<{ headPosition: number }>);
  return ready.headPosition;
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

async function call(replica: LedgerProcess, method: string, path: string, token: string, body?: unknown, minPosition?: number): Promise<Answer> {
  const response = await fetch(`${replica.url}${path}`, {
    method,
    headers: {
      'x-auth-token': token,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(minPosition !== undefined ? { 'x-ledger-min-position': String(minPosition) } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** Reads until the replica's projections have reached `position` (each read waits up to 5 s on the server). */
async function waitForProjections(replica: LedgerProcess, position: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await call(replica, 'GET', '/api/v1/hosts?limit=1', ADMIN, undefined, position);
    if (answer.status === 200) return;
    if (answer.body?.code !== 'CONSISTENCY.NOT_CAUGHT_UP' || Date.now() > deadline) throw new Error(`projections did not reach ${position}: ${JSON.stringify(answer.body)}`);
  }
}

/** The instance holding most live leases (every processor, reactor and workflow has its own). */
async function leaseHolder(schema: string): Promise<string> {
  const { rows } = await withPostgresClient(postgresUrl(), (client) =>
    client.query<{ owner: string }>(`SELECT owner FROM ${schema}.processor_leases WHERE expires_at > $1 GROUP BY owner ORDER BY count(*) DESC LIMIT 1`, [Date.now()]),
  );
  return rows[0]?.owner ?? '(none)';
}

/** Every read model of `schema` against a rebuild from the log in a scratch schema (test/support/read-model-rebuild.ts): the tables that differ. */
async function readModelsOfSchemaAgainstRebuild(schema: string): Promise<string[]> {
  const scratch = `${schema}_rebuild`;
  const config = loadLedgerConfig({ LEDGER_STORE: 'postgres', LEDGER_POSTGRES_URL: postgresUrl(), LEDGER_POSTGRES_SCHEMA: schema });
  const store = await openEventStore(eventStoreOptions(config));
  const live = await openPostgresSqlDatabase({ connectionString: postgresUrl(), schema });
  const rebuilt = await openPostgresSqlDatabase({ connectionString: postgresUrl(), schema: scratch });
  try {
    return await readModelsAgainstRebuild(store, live, rebuilt);
  } finally {
    await rebuilt.close();
    await live.close();
    await store.close();
    await withPostgresClient(postgresUrl(), (client) => client.query(`DROP SCHEMA IF EXISTS ${scratch} CASCADE`));
  }
}
