import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../test/support/services';
import { openPostgresEventStore } from '../adapters/postgres/open-postgres-event-store';
import { openSqliteEventStore } from '../adapters/sqlite/open-sqlite-event-store';
import type { SqliteEventStore } from '../adapters/sqlite/sqlite-event-store';
import type { StoreLocation } from '../store-location';
import { newEvent } from '../testing/contract/fixtures';
import { type SignedCheckpoint, signCheckpoint } from './head-checkpoint';
import { MIN_EVENTS_PER_THREAD, verifyInWorkers, verifyThreadCount } from './parallel-verify';
import { verifyStoreLog } from './verify-log';

const keys = generateKeyPairSync('ed25519');
const EVENTS = 60;

/**
 * Real worker threads (the compiled range-worker.js, which Jest's global
 * setup builds) over a real SQLite file, edited behind the store's back as a
 * forger with the file would: the verdict equals the single walk's.
 */
describe('verifyInWorkers on an SQLite file', () => {
  let dir: string;
  let store: SqliteEventStore;
  let location: Extract<StoreLocation, { kind: 'sqlite' }>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-parallel-verify-'));
    store = await openSqliteEventStore({ file: join(dir, 'events.sqlite') });
    for (let index = 0; index < EVENTS; index++) {
      await store.append(`device-${index % 4}`, [newEvent('inventory.DeviceHealthChanged', { health: index % 2 ? 'ok' : 'degraded', at: index })], { expected: 'any' });
    }
    location = store.location() as Extract<StoreLocation, { kind: 'sqlite' }>;
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs SQL on the file through a connection of its own. */
  function tamper(sql: string, ...parameters: unknown[]): void {
    const db = new Database(location.file);
    try {
      db.prepare(sql).run(...parameters);
    } finally {
      db.close();
    }
  }

  async function checkpointAt(position: number): Promise<SignedCheckpoint> {
    const [event] = (await store.readAll({ after: position - 1, max: 1 })).events;
    return signCheckpoint({ position, hash: event.hash, at: '2026-11-29T03:00:00.000Z' }, keys.privateKey);
  }

  async function sameVerdict(checkpoints: readonly SignedCheckpoint[] = []) {
    const head = await store.headPosition();
    const walked = await verifyStoreLog(store, checkpoints, keys.publicKey, { threads: 1 });
    for (const threads of [2, 7]) {
      expect(await verifyInWorkers(location, head, checkpoints, keys.publicKey, { threads, batch: 4 })).toEqual(walked);
    }
    return walked;
  }

  it('finds an intact log intact, and hears every event checked', async () => {
    const heard: number[] = [];
    const verdict = await verifyInWorkers(location, EVENTS, [await checkpointAt(40)], keys.publicKey, { threads: 3, batch: 4, onProgress: (seen) => heard.push(seen) });
    expect(verdict).toMatchObject({ ok: true, checked: EVENTS, headPosition: EVENTS, anchor: { position: 40 }, unanchored: EVENTS - 40 });
    expect(verdict).toEqual(await verifyStoreLog(store, [await checkpointAt(40)], keys.publicKey, { threads: 1 }));
    expect(Math.max(...heard)).toBe(EVENTS);
  });

  it.each([1, 20, 21, 41, EVENTS])('finds data edited at position %i where the single walk does', async (position) => {
    tamper('UPDATE events SET data = ? WHERE position = ?', '{"health":"failed"}', position);
    expect((await sameVerdict()).firstBreak).toMatchObject({ position, reason: 'content-changed' });
  });

  it.each([20, 21, 40])('finds event %i deleted where the single walk does', async (position) => {
    tamper('DELETE FROM events WHERE position = ?', position);
    expect((await sameVerdict()).firstBreak).toMatchObject({ position: position + 1, reason: 'position-gap' });
  });

  it('finds a cut tail against a signed checkpoint', async () => {
    const checkpoints = [await checkpointAt(30), await checkpointAt(EVENTS)];
    tamper('DELETE FROM events WHERE position > ?', 45);
    expect((await sameVerdict(checkpoints)).firstBreak).toMatchObject({ position: 46, reason: 'truncated' });
  });

  it('finds a hash rewritten at a range boundary', async () => {
    tamper('UPDATE events SET hash = ? WHERE position = ?', 'f'.repeat(64), 30);
    expect((await sameVerdict([await checkpointAt(45)])).firstBreak).toMatchObject({ position: 30, reason: 'content-changed' });
  });

  it('finds a forged checkpoint before starting any worker', async () => {
    const forged = { ...(await checkpointAt(10)), hash: 'a'.repeat(64) };
    expect((await sameVerdict([forged])).firstBreak).toMatchObject({ position: 10, reason: 'checkpoint-forged' });
  });
});

describeWithService('PostgreSQL', postgresUnavailable())('verifyInWorkers on PostgreSQL', () => {
  it('gives the single walk’s verdict, intact and with an event edited at a range boundary', async () => {
    const schema = `ledger_test_${randomBytes(6).toString('hex')}`;
    const store = await openPostgresEventStore({ connectionString: postgresUrl(), schema });
    const client = new Client({ connectionString: postgresUrl() });
    await client.connect();
    try {
      for (let index = 0; index < 30; index++) {
        await store.append(`device-${index % 4}`, [newEvent('inventory.DeviceHealthChanged', { health: 'ok', at: index })], { expected: 'any' });
      }
      const location = store.location()!;
      expect(location).toMatchObject({ kind: 'postgres', schema });
      const walked = await verifyStoreLog(store, [], undefined, { threads: 1 });
      expect(walked).toMatchObject({ ok: true, checked: 30 });
      expect(await verifyInWorkers(location, 30, [], undefined, { threads: 2, batch: 4 })).toEqual(walked);
      await client.query(`UPDATE ${schema}.ledger_events SET data = '{"health":"failed"}' WHERE position = 16`);
      const broken = await verifyStoreLog(store, [], undefined, { threads: 1 });
      expect(broken.firstBreak).toMatchObject({ position: 16, reason: 'content-changed' });
      expect(await verifyInWorkers(location, 30, [], undefined, { threads: 2, batch: 4 })).toEqual(broken);
    } finally {
      await store.close();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});

describe('verifyThreadCount', () => {
  it('takes what is asked, one per core when asked nothing, and fewer on a small log', () => {
    expect(verifyThreadCount(2, 10 * MIN_EVENTS_PER_THREAD)).toBe(2);
    expect(verifyThreadCount(0, 100 * MIN_EVENTS_PER_THREAD)).toBeGreaterThanOrEqual(1);
    expect(verifyThreadCount(8, 3 * MIN_EVENTS_PER_THREAD)).toBe(3);
    expect(verifyThreadCount(8, MIN_EVENTS_PER_THREAD - 1)).toBe(1);
  });
});
