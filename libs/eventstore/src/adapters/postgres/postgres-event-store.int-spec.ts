import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ChainVerifier, type RecordedEvent } from '@ledger/eventstore';
import { appendBurstUntilKilled, describeEventStoreContract, newEvent, readAllAfter, uniqueStream, untilVisible } from '@ledger/eventstore/testing';
import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../../test/support/services';
import { openPostgresEventStore } from './open-postgres-event-store';
import type { PostgresEventStore } from './postgres-event-store';

const describePostgres = describeWithService('PostgreSQL', postgresUnavailable());

const freshSchema = (): string => `ledger_test_${randomBytes(6).toString('hex')}`;

async function dropSchema(schema: string): Promise<void> {
  const client = new Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** The head as the writers' lock row has it, whatever readers can see yet. */
async function committedHead(schema: string): Promise<number> {
  const client = new Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ position: string }>(`SELECT position FROM ${schema}.ledger_head`);
    return Number(rows[0].position);
  } finally {
    await client.end();
  }
}

const verify = (events: readonly RecordedEvent[]) => {
  const verifier = new ChainVerifier();
  for (const event of events) verifier.check(event);
  return verifier.verdict();
};

describeEventStoreContract(
  'PostgreSQL',
  async () => {
    const schema = freshSchema();
    const store = await openPostgresEventStore({ connectionString: postgresUrl(), schema });
    return {
      store,
      async cleanup() {
        await store.close();
        await dropSchema(schema);
      },
    };
  },
  describePostgres,
);

describePostgres('PostgreSQL event store', () => {
  let schema: string;
  let stores: PostgresEventStore[];
  const open = async (): Promise<PostgresEventStore> => {
    const store = await openPostgresEventStore({ connectionString: postgresUrl(), schema });
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    schema = freshSchema();
    stores = [];
  });

  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await dropSchema(schema);
  });

  it('migrates safely when several replicas open at once', async () => {
    const replicas = await Promise.all([open(), open(), open(), open()]);
    const { position } = await replicas[0].append(uniqueStream(), [newEvent()], { expected: 'no_stream' });
    expect(position).toBe(1);
    await untilVisible(replicas[3], position);
  });

  it('sends 64 concurrent appends in far fewer round trips', async () => {
    const store = await open();
    const results = await Promise.all(
      Array.from({ length: 64 }, () => store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' })),
    );
    expect(results.map((result) => result.position).sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    expect(store.stats().roundTrips).toBeLessThanOrEqual(2);
  });

  it('keeps one gap-free chain across replicas, and a reader on another replica misses nothing', async () => {
    const replicas = await Promise.all([open(), open(), open()]);
    const reader = await open();
    const perReplica = 30;
    const total = replicas.length * perReplica * 2;
    const writes = replicas.map(async (replica) => {
      for (let i = 0; i < perReplica; i++) {
        await Promise.all([
          replica.append(uniqueStream(), [newEvent()], { expected: 'no_stream' }),
          replica.append(uniqueStream(), [newEvent()], { expected: 'any' }),
        ]);
      }
    });
    const seen: RecordedEvent[] = [];
    const reading = (async () => {
      let after = 0;
      while (seen.length < total) {
        const page = await reader.readAll({ after, max: 5 });
        for (const event of page.events) {
          expect(event.position).toBe(seen.length + 1);
          seen.push(event);
        }
        after = page.position;
        // Woken by LISTEN/NOTIFY: the writers are other replicas.
        if (page.events.length === 0) await reader.waitForAppend(1000);
      }
    })();
    await Promise.all([...writes, reading]);
    expect(verify(seen)).toMatchObject({ ok: true, checked: total });
  });

  it('does not let readers pass a transaction that has not committed yet', async () => {
    const store = await open();
    await untilVisible(store, (await store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' })).position);
    const openTransaction = new Client({ connectionString: postgresUrl(), options: `-c search_path=${schema}` });
    await openTransaction.connect();
    try {
      // Any transaction holding an xid keeps later commits out of readAll until it ends.
      await openTransaction.query('BEGIN');
      await openTransaction.query('SELECT pg_current_xact_id()');
      await store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' });
      expect(await store.readAll({ after: 0 })).toMatchObject({ position: 1 });
      expect(await store.headPosition()).toBe(1);
      await openTransaction.query('COMMIT');
      await untilVisible(store, 2);
      expect(await store.readAll({ after: 0 })).toMatchObject({ position: 2 });
    } finally {
      await openTransaction.end();
    }
  });

  it('keeps every acknowledged event and a verifiable chain after a writer is killed mid-burst', async () => {
    const store = await open();
    const acknowledged = await appendBurstUntilKilled({ kind: 'postgres', connectionString: postgresUrl(), schema }, 400);
    // The killed writer's last transaction stays open until the server notices; then the head row shows the committed head.
    await untilVisible(store, await committedHead(schema));
    const events = await readAllAfter(store, 0, undefined, 1000);
    const recorded = new Set(events.map((event) => event.id));
    expect(acknowledged.filter((id) => !recorded.has(id))).toEqual([]);
    expect(verify(events)).toMatchObject({ ok: true, checked: events.length, headPosition: await store.headPosition() });
    const next = await store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' });
    expect(next.position).toBe(events.length + 1);
  });
});
