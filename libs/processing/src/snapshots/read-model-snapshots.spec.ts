import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsOfRebuilds } from '../processors/as-of-rebuilds';
import { openSqliteScratchCopy, writeSqliteSqlDatabase } from '../sql/sqlite-sql-database';
import { InMemoryEventStore, readStreamCounts, streamCounterProjection, testEvent } from '../testing';
import { type RefusedSnapshot, ReadModelSnapshots } from './read-model-snapshots';
import { SnapshotFiles } from './snapshot-files';
import { SnapshotTaker } from './snapshot-taker';

const counter = streamCounterProjection();

async function logOf(events: number, streams = 3): Promise<InMemoryEventStore> {
  let second = 0;
  const store = new InMemoryEventStore(() => new Date(Date.UTC(2026, 10, 1, 10, 0, second++)));
  for (let n = 0; n < events; n++) await store.append(`device-${n % streams}`, [testEvent('test.Counted', { n })], { expected: 'any' });
  return store;
}

/** Reads of the log, by the position each starts after. */
function counting(store: InMemoryEventStore, readsFrom: number[]) {
  return {
    headPosition: () => store.headPosition(),
    readAll: (options: Parameters<typeof store.readAll>[0]) => (readsFrom.push(options?.after ?? 0), store.readAll(options)),
  };
}

describe('read-model snapshots', () => {
  let directory: string;
  let files: SnapshotFiles;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'snapshots-'));
    files = new SnapshotFiles(directory);
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('are taken every N events as the log grows, and at the head once the time has passed', async () => {
    const store = await logOf(23);
    let now = 0;
    const taker = new SnapshotTaker({ store, snapshots: new ReadModelSnapshots(store, files), processors: [counter], everyEvents: 10, everyMs: 60_000, clock: () => now });
    expect((await taker.takeDue()).map((file) => file.position)).toEqual([10, 20]);
    expect(await taker.takeDue()).toEqual([]);
    now = 60_000;
    expect((await taker.takeDue()).map((file) => file.position)).toEqual([23]);
    await store.append('device-0', [testEvent('test.Counted', { n: 23 })], { expected: 'any' });
    expect(await taker.takeDue()).toEqual([]);
    await taker.close();
    expect(files.list(counter.name, counter.version).map((file) => file.position)).toEqual([23, 20, 10]);
  });

  it('restart from the newest snapshot they can verify instead of replaying the log', async () => {
    const store = await logOf(25);
    const first = new SnapshotTaker({ store, snapshots: new ReadModelSnapshots(store, files), processors: [counter], everyEvents: 10, everyMs: 0 });
    await first.takeDue();
    await first.close();
    const readsFrom: number[] = [];
    const log = counting(store, readsFrom);
    const second = new SnapshotTaker({ store: log, snapshots: new ReadModelSnapshots(log, files), processors: [counter], everyEvents: 5, everyMs: 0 });
    expect((await second.takeDue()).map((file) => file.position)).toEqual([25]);
    expect(Math.min(...readsFrom)).toBe(19); // the chain hash at 20, then the events after it
    await second.close();
  });

  it('restore the nearest at or before a position; an as-of read replays only the rest and equals a full replay', async () => {
    const store = await logOf(47);
    const taker = new SnapshotTaker({ store, snapshots: new ReadModelSnapshots(store, files), processors: [counter], everyEvents: 10, everyMs: 0 });
    await taker.takeDue();
    await taker.close();
    const readsFrom: number[] = [];
    const log = counting(store, readsFrom);
    const withSnapshots = new AsOfRebuilds(log, 4, new ReadModelSnapshots(log, files));
    for (const position of [3, 10, 19, 20, 31, 40, 46, 47]) {
      const byReplay = new AsOfRebuilds(store);
      const expected = await byReplay.read(counter, { position }, readStreamCounts);
      await byReplay.close();
      readsFrom.length = 0;
      expect(await withSnapshots.read(counter, { position }, readStreamCounts)).toEqual(expected);
      const snapshotAt = Math.floor(position / 10) * 10;
      if (snapshotAt > 0 && readsFrom.length > 0) expect(Math.min(...readsFrom)).toBeGreaterThanOrEqual(snapshotAt - 1);
    }
    await withSnapshots.close();
  });

  it('are refused when their chain hash is not the log’s at their position, and the read falls back to an older one', async () => {
    const store = await logOf(30);
    const taker = new SnapshotTaker({ store, snapshots: new ReadModelSnapshots(store, files), processors: [counter], everyEvents: 10, everyMs: 0 });
    await taker.takeDue();
    await taker.close();
    const [newest] = files.list(counter.name, counter.version);
    const edited = await openSqliteScratchCopy(newest.path);
    await edited.run('UPDATE processor_checkpoints SET hash = $1', ['f'.repeat(64)]);
    await files.write(counter.name, counter.version, newest.position, (path) => writeSqliteSqlDatabase(edited, path));
    await edited.close();
    const refused: RefusedSnapshot[] = [];
    const snapshots = new ReadModelSnapshots(store, files, (snapshot) => refused.push(snapshot));
    const restored = await snapshots.restore(counter, 30);
    expect(restored?.position).toBe(20);
    await restored?.db.close();
    expect(refused).toEqual([expect.objectContaining({ position: 30, reason: 'chain-mismatch' })]);
    const rebuilds = new AsOfRebuilds(store, 4, snapshots);
    const byReplay = new AsOfRebuilds(store);
    expect(await rebuilds.read(counter, { position: 30 }, readStreamCounts)).toEqual(await byReplay.read(counter, { position: 30 }, readStreamCounts));
    await rebuilds.close();
    await byReplay.close();
  });

  it('of another log are all refused, and the as-of read replays from position 0', async () => {
    const original = await logOf(30);
    const taker = new SnapshotTaker({ store: original, snapshots: new ReadModelSnapshots(original, files), processors: [counter], everyEvents: 10, everyMs: 0 });
    await taker.takeDue();
    await taker.close();
    const other = await logOf(30, 5);
    const refused: RefusedSnapshot[] = [];
    const rebuilds = new AsOfRebuilds(other, 4, new ReadModelSnapshots(other, files, (snapshot) => refused.push(snapshot)));
    const byReplay = new AsOfRebuilds(other);
    expect(await rebuilds.read(counter, { position: 25 }, readStreamCounts)).toEqual(await byReplay.read(counter, { position: 25 }, readStreamCounts));
    expect(refused.map(({ position, reason }) => ({ position, reason }))).toEqual([
      { position: 20, reason: 'chain-mismatch' },
      { position: 10, reason: 'chain-mismatch' },
    ]);
    await rebuilds.close();
    await byReplay.close();
  });

  it('are refused when the file claims another position than the read model inside it', async () => {
    const store = await logOf(20);
    const snapshots = new ReadModelSnapshots(store, files);
    const taker = new SnapshotTaker({ store, snapshots, processors: [counter], everyEvents: 10, everyMs: 0 });
    await taker.takeDue();
    await taker.close();
    const [newest, older] = files.list(counter.name, counter.version);
    rmSync(newest.path);
    renameSync(older.path, newest.path);
    const refused: RefusedSnapshot[] = [];
    expect(await new ReadModelSnapshots(store, files, (snapshot) => refused.push(snapshot)).restore(counter, 20)).toBeUndefined();
    expect(refused).toEqual([expect.objectContaining({ position: 20, reason: 'checkpoint-mismatch' })]);
  });

  it('keep the newest N of each read model when told to, deleting the older ones and those of other versions', async () => {
    const store = await logOf(45);
    const old = new SnapshotTaker({ store, snapshots: new ReadModelSnapshots(store, files), processors: [streamCounterProjection({ version: 2 })], everyEvents: 20, everyMs: 0 });
    await old.takeDue();
    await old.close();
    const pruned: number[] = [];
    const taker = new SnapshotTaker({ store, snapshots: new ReadModelSnapshots(store, files), processors: [counter], everyEvents: 10, everyMs: 0, keep: 2, onPruned: (file) => pruned.push(file.position) });
    expect((await taker.takeDue()).map((file) => file.position)).toEqual([10, 20, 30, 40]);
    await taker.close();
    expect(files.list(counter.name, counter.version).map((file) => file.position)).toEqual([40, 30]);
    expect(files.list(counter.name, 2)).toEqual([]);
    expect(pruned.sort((a, b) => a - b)).toEqual([10, 20, 20, 40]);
    // A read before the oldest kept one replays from position 0; one after it starts from it. Both answer as a full replay.
    const byReplay = new AsOfRebuilds(store);
    const withSnapshots = new AsOfRebuilds(store, 4, new ReadModelSnapshots(store, files));
    for (const position of [15, 35]) {
      expect(await withSnapshots.read(counter, { position }, readStreamCounts)).toEqual(await byReplay.read(counter, { position }, readStreamCounts));
    }
    await Promise.all([byReplay.close(), withSnapshots.close()]);
  });

  it('of another projection version are not used', async () => {
    const store = await logOf(20);
    const taker = new SnapshotTaker({ store, snapshots: new ReadModelSnapshots(store, files), processors: [counter], everyEvents: 10, everyMs: 0 });
    await taker.takeDue();
    await taker.close();
    expect(await new ReadModelSnapshots(store, files).restore(streamCounterProjection({ version: 2 }), 20)).toBeUndefined();
  });
});
