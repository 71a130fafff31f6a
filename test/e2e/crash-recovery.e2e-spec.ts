import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TokenCodec } from '@ledger/auth';
import { eventStoreOptions, loadLedgerConfig, readModelOptions } from '@ledger/config';
import { ChainVerifier, openEventStore, type EventStore, type RecordedEvent } from '@ledger/eventstore';
import { openPostgresSqlDatabase, openSqliteSqlDatabase, readCheckpoint, rebuildProcessor, type SqlDatabase } from '@ledger/processing';
import { REPLAYABLE_PROJECTIONS } from '@ledger/projections/catalog';
import { inventoryProjection, snapshotInventory } from '@ledger/projections/inventory';
import { openReadModels } from '../../apps/ledger/src/infrastructure/open-read-models';
import { hostReportBody, hostname } from '../support/fleet';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';
import { readModelsAgainstRebuild } from '../support/read-model-rebuild';
import { describeWithService, postgresUnavailable, postgresUrl } from '../support/services';

const SECRET = 'crash-test-signing-key-0123456789abcdef';
const CLIENTS = 16;
const KILL_AFTER_ACKS = 150;
/** Writes answered before the kill in the read-model test, and how many kill cycles may pass before one lands with a read model behind. */
const KILL_AFTER_WRITES = 60;
const MAX_KILL_CYCLES = 5;

interface Ack {
  readonly hostname: string;
  readonly position: number;
  readonly appended: number;
}

/**
 * Kills the ledger (SIGKILL) in the middle of a burst of host reports,
 * restarts it, and checks that every acknowledged event is in the log, the
 * hash chain holds, and the projection equals a rebuild from zero.
 */
function crashRecoverySuite(storeEnv: () => Record<string, string>, cleanup: () => Promise<void>) {
  let dataDir: string;
  let env: Record<string, string>;
  let ledger: LedgerProcess | undefined;
  const admin = new TokenCodec(SECRET).issue({ user: 'admin', project: 'admin', roles: ['admin'] });

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-crash-'));
    // A short lease: the restarted process takes the killed one's processors over once it expires.
    env = { LEDGER_DATA_DIR: dataDir, LEDGER_AUTH_SECRET: SECRET, LEDGER_PROCESSOR_LEASE_MS: '2000', ...storeEnv() };
  });
  afterAll(async () => {
    await ledger?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await cleanup();
  });

  it('loses no acknowledged event, and the projection after restart equals a rebuild from zero', async () => {
    ledger = await startLedgerProcess(env);
    const acks: Ack[] = [];
    let enoughAcks!: () => void;
    const killPoint = new Promise<void>((resolve) => (enoughAcks = resolve));

    const client = async (clientIndex: number) => {
      for (let generation = 0; ; generation++) {
        const host = hostname(clientIndex * 1000 + (generation % 5));
        const response = await fetch(`${ledger!.url}/api/v1/hosts/${host}/report`, {
          method: 'PUT',
          headers: { 'x-auth-token': admin, 'content-type': 'application/json' },
          body: JSON.stringify(hostReportBody(clientIndex, generation)),
        }).catch(() => undefined);
        if (!response) return; // the ledger is gone: the burst ends here
        if (response.status !== 200) throw new Error(`report refused: ${response.status} ${await response.text()}`);
        const body = (await response.json()) as { position: number | null; appended: number };
        if (body.position !== null) acks.push({ hostname: host, position: body.position, appended: body.appended });
        if (acks.length >= KILL_AFTER_ACKS) enoughAcks();
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
    await killPoint;
    await ledger.kill('SIGKILL');
    await Promise.all(clients);
    expect(acks.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

    ledger = await startLedgerProcess(env);
    const { headPosition: head } = (await (await fetch(`${ledger.url}/readyz`)).json()) as { headPosition: number };
    await waitForProjections(ledger.url, admin, head);
    await ledger.kill('SIGTERM');

    const config = loadLedgerConfig(env);
    const store = await openEventStore(eventStoreOptions(config));
    const live = await openReadModels(readModelOptions(config));
    const rebuilt = await openRebuildDatabase(config.readModels);
    try {
      const log = await readWholeLog(store);
      for (const ack of acks) {
        for (let position = ack.position - ack.appended + 1; position <= ack.position; position++) {
          expect(log.get(position)?.stream).toBe(`host-${ack.hostname}`);
        }
      }
      const verifier = new ChainVerifier();
      for (const event of log.values()) verifier.check(event);
      expect(verifier.verdict()).toMatchObject({ ok: true, checked: log.size });

      await rebuildProcessor(store, rebuilt.db, inventoryProjection);
      expect(await snapshotInventory(live)).toEqual(await snapshotInventory(rebuilt.db));
    } finally {
      await rebuilt.close();
      await live.close();
      await store.close();
    }
  });

  it('killed between a write\'s append and its read models\' commit, every read model ends equal to a rebuild', async () => {
    const config = loadLedgerConfig(env);
    let behind: string[] = [];
    for (let cycle = 1; cycle <= MAX_KILL_CYCLES && behind.length === 0; cycle++) {
      ledger = await startLedgerProcess(env);
      await writeUntilKilled(ledger, admin, cycle, KILL_AFTER_WRITES);
      behind = await readModelsBehindHead(config);
    }
    // The kill landed while at least one read model had not committed what the log already held.
    expect(behind).not.toEqual([]);

    ledger = await startLedgerProcess(env);
    const { headPosition: head } = (await (await fetch(`${ledger.url}/readyz`)).json()) as { headPosition: number };
    await waitForProjections(ledger.url, admin, head);
    await ledger.kill('SIGTERM');

    const store = await openEventStore(eventStoreOptions(config));
    const live = await openReadModels(readModelOptions(config));
    const rebuilt = await openRebuildDatabase(config.readModels);
    try {
      expect(await readModelsAgainstRebuild(store, live, rebuilt.db)).toEqual([]);
    } finally {
      await rebuilt.close();
      await live.close();
      await store.close();
    }
  }, 300_000);
}

/**
 * Operators define profiles, Nova creates requests in their projects and
 * agents report hosts, 16 clients at once, until `writes` are answered;
 * then the ledger is killed (SIGKILL) with the burst still running.
 */
async function writeUntilKilled(ledger: LedgerProcess, admin: string, cycle: number, writes: number): Promise<void> {
  const codec = new TokenCodec(SECRET);
  const post = (path: string, token: string, body: unknown) =>
    fetch(`${ledger.url}${path}`, { method: 'POST', headers: { 'x-auth-token': token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const profile = `crash-profile-${cycle}`;
  expect((await post('/v2/device_profiles', admin, [{ name: profile, groups: [{ 'resources:FPGA': '1' }] }])).status).toBe(201);
  let answered = 0;
  let enough!: () => void;
  const killPoint = new Promise<void>((resolve) => (enough = resolve));
  const write = async (client: number, n: number): Promise<Response | undefined> => {
    const nova = codec.issue({ user: 'nova', project: `crash-${client}`, roles: ['member', 'service'] });
    if (n % 3 === 0) return post('/v2/accelerator_requests', nova, { device_profile_name: profile }).catch(() => undefined);
    if (n % 3 === 1) return post('/v2/device_profiles', admin, [{ name: `crash-${cycle}-${client}-${n}`, groups: [{ 'resources:GPU': '1' }] }]).catch(() => undefined);
    const host = hostname(cycle * 10_000 + client * 100 + (n % 5));
    return fetch(`${ledger.url}/api/v1/hosts/${host}/report`, {
      method: 'PUT',
      headers: { 'x-auth-token': admin, 'content-type': 'application/json' },
      body: JSON.stringify(hostReportBody(client, n)),
    }).catch(() => undefined);
  };
  const client = async (index: number) => {
    for (let n = 0; ; n++) {
      const response = await write(index, n);
      if (!response) return; // the ledger is gone: the burst ends here
      if (response.status >= 300) throw new Error(`write refused: ${response.status} ${await response.text()}`);
      if (++answered >= writes) enough();
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));
  await killPoint;
  await ledger.kill('SIGKILL');
  await Promise.all(clients);
}

/** The replayable read models whose checkpoint is below the log's head, read from the files the killed ledger left. */
async function readModelsBehindHead(config: ReturnType<typeof loadLedgerConfig>): Promise<string[]> {
  const store = await openEventStore(eventStoreOptions(config));
  const db = await openReadModels(readModelOptions(config));
  try {
    const head = await store.headPosition();
    const behind: string[] = [];
    for (const name of REPLAYABLE_PROJECTIONS.keys()) {
      const checkpoint = await readCheckpoint(db, name);
      if ((checkpoint?.position ?? 0) < head) behind.push(name);
    }
    return behind;
  } finally {
    await db.close();
    await store.close();
  }
}

/** Waits (each request waits up to 5 s server-side) until the projections have processed `position`. */
async function waitForProjections(url: string, token: string, position: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`${url}/api/v1/hosts?limit=1`, { headers: { 'x-auth-token': token, 'x-ledger-min-position': String(position) } });
    if (response.status === 200) return;
    const problem = (await response.json()) as { code: string };
    if (problem.code !== 'CONSISTENCY.NOT_CAUGHT_UP' || Date.now() > deadline) {
      throw new Error(`projections did not reach ${position}: ${JSON.stringify(problem)}`);
    }
  }
}

async function readWholeLog(store: EventStore): Promise<Map<number, RecordedEvent>> {
  const log = new Map<number, RecordedEvent>();
  for (let after = 0; ; ) {
    const { events, position } = await store.readAll({ after, max: 5000 });
    if (position === after) return log;
    for (const event of events) log.set(event.position, event);
    after = position;
  }
}

/** A second, empty read-model database of the same engine as the live one. */
async function openRebuildDatabase(kind: 'sqlite' | 'postgres'): Promise<{ db: SqlDatabase; close(): Promise<void> }> {
  if (kind === 'sqlite') {
    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    return { db, close: () => db.close() };
  }
  const schema = `crash_rebuild_${process.pid}`;
  const db = await openPostgresSqlDatabase({ connectionString: postgresUrl(), schema });
  return { db, close: async () => (await db.close(), dropSchema(schema)) };
}

async function dropSchema(schema: string): Promise<void> {
  const client = new Client({ connectionString: postgresUrl() });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

describe('crash recovery: embedded SQLite', () => {
  crashRecoverySuite(() => ({}), async () => undefined);
});

const schema = `crash_${process.pid}`;
describeWithService('PostgreSQL', postgresUnavailable())('crash recovery: PostgreSQL', () => {
  crashRecoverySuite(
    () => ({ LEDGER_STORE: 'postgres', LEDGER_POSTGRES_URL: postgresUrl(), LEDGER_POSTGRES_SCHEMA: schema }),
    () => dropSchema(schema),
  );
});
