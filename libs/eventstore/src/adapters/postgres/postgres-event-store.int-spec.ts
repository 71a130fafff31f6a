import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ChainVerifier, type RecordedEvent, StreamVersionWatch } from '@ledger/eventstore';
import { contentHash } from '@ledger/eventstore';
import { appendBurstUntilKilled, appendManyBesideSingleAppends, describeEventStoreContract, metadata, newEvent, readAllAfter, uniqueStream, untilVisible } from '@ledger/eventstore/testing';
import { uuidV7 } from '@ledger/kernel';
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

  it('commits appendMany calls and single appends made at once in one round trip, failing only the stale call, whole', async () => {
    const store = await open();
    await appendManyBesideSingleAppends(store);
    // Two for the setup's appends, then one for all four calls.
    expect(store.stats()).toEqual({ roundTrips: 3, appends: 6 });
  });

  it('keeps one gap-free chain across replicas, and a reader on another replica misses nothing', async () => {
    const replicas = await Promise.all([open(), open(), open(), open()]);
    const reader = await open();
    const perReplica = 60;
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

  it("lets a replica's StreamVersionWatch forget a stream another replica appended to, once the NOTIFY arrives", async () => {
    const [mine, other] = await Promise.all([open(), open()]);
    const stream = `host-${randomBytes(4).toString('hex')}`;
    await mine.append(stream, [newEvent()], { expected: 'no_stream' });
    const watch = new StreamVersionWatch(mine, { categories: ['host'] });
    try {
      // The first append's NOTIFY comes back to this replica too, and unsettles the watch once more when it does.
      for (;;) {
        await watch.catchUp();
        watch.confirm(stream, 1, watch.mark());
        if (watch.isCurrent(stream, 1)) break;
        await mine.waitForAppend(20);
      }
      await other.append(stream, [newEvent()], { expected: 1 });
      // Waits for the condition: the NOTIFY's trip, then the watch's read of the log.
      while (watch.isCurrent(stream, 1)) await mine.waitForAppend(20);
      await watch.catchUp();
      expect(watch.isCurrent(stream, 1)).toBe(false);
    } finally {
      watch.close();
    }
  });

  it('does not let readers pass an append that has not committed yet, nor show the ones queued behind it', async () => {
    const store = await open();
    const first = await store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' });
    await untilVisible(store, first.position);
    // Another replica in the middle of its commit: it holds the head lock and has inserted its row.
    const replica = new Client({ connectionString: postgresUrl(), options: `-c search_path=${schema}` });
    await replica.connect();
    try {
      await replica.query('BEGIN');
      const event = { id: uuidV7(), type: 'test.Happened', recordedAt: new Date().toISOString(), data: {}, metadata: metadata() };
      const batch = [[{ stream: uniqueStream(), expected: 'no_stream', events: [{ id: event.id, type: event.type, recorded_at: event.recordedAt, data: event.data, metadata: event.metadata, content_hash: contentHash(event) }] }]];
      await replica.query('SELECT ledger_append($1::jsonb)', [JSON.stringify(batch)]);
      const queued = store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' });
      expect(await store.readAll({ after: first.position })).toEqual({ events: [], position: first.position });
      expect(await store.headPosition()).toBe(first.position);
      await replica.query('COMMIT');
      const last = await queued;
      expect(last.position).toBe(first.position + 2);
      await untilVisible(store, last.position);
      const { events } = await store.readAll({ after: first.position });
      expect(events.map((e) => e.position)).toEqual([first.position + 1, first.position + 2]);
      expect(events[0].id).toBe(event.id);
    } finally {
      await replica.end();
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
