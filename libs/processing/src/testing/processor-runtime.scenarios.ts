import type { EventStore, RecordedEvent } from '@ledger/eventstore';
import { readCheckpoint } from '../checkpoints/checkpoint';
import type { Clock } from '../leases/clock';
import { PositionNotReachedError } from '../processors/position-waiters';
import type { Processor } from '../processors/processor';
import { ProcessorRuntime, type ProcessorRuntimeOptions } from '../processors/processor-runtime';
import type { ProcessorState } from '../processors/processor-status';
import type { SqlDatabase } from '../sql/sql-database.port';
import { capturingLogger } from './capturing-logger';
import { eventually } from './eventually';
import { readStreamCounts, streamCounterProjection } from './stream-counter.projection';
import { appendSpread, testEvent } from './test-events';
import type { TestDatabases } from './test-databases';

export interface RuntimeScenarioSetup {
  readonly databases: () => TestDatabases;
  /** A new, empty event store. */
  readonly store: () => Promise<EventStore>;
}

/** A processor that counts the events it was handed, committed or not. */
function counted(processor: Processor): Processor & { applied: number } {
  const spy = {
    ...processor,
    applied: 0,
    async apply(events: readonly RecordedEvent[], tx: Parameters<Processor['apply']>[1]) {
      spy.applied += events.length;
      await processor.apply(events, tx);
    },
  };
  return spy;
}

/** The processor runtime against one SqlDatabase adapter and one event store. */
export function processorRuntimeScenarios(setup: RuntimeScenarioSetup): void {
  let databases: TestDatabases;
  let store: EventStore;
  let runtimes: ProcessorRuntime[];
  let count = 0;
  let dbName: string;

  beforeAll(() => {
    databases = setup.databases();
  });
  afterAll(() => databases.dispose());
  beforeEach(async () => {
    store = await setup.store();
    runtimes = [];
    dbName = `runtime_${++count}`;
  });
  afterEach(async () => {
    await Promise.all(runtimes.map((runtime) => runtime.stop()));
    await store.close();
  });

  const open = (): Promise<SqlDatabase> => databases.open(dbName);
  const startRuntime = async (options: Partial<ProcessorRuntimeOptions> & Pick<ProcessorRuntimeOptions, 'db' | 'processors'>) => {
    const runtime = new ProcessorRuntime({ store, owner: 'test-owner', logger: capturingLogger(), initialRetryMs: 5, ...options });
    runtimes.push(runtime);
    await runtime.start();
    return runtime;
  };
  const stateOf = async (runtime: ProcessorRuntime): Promise<ProcessorState> => (await runtime.status())[0].state;

  it('processes stored events in batches, then live ones, and reports its status', async () => {
    const db = await open();
    await appendSpread(store, { count: 50, streams: 5 });
    const runtime = await startRuntime({ db, processors: [streamCounterProjection()], batchSize: 7 });
    await runtime.waitForPosition(50);
    expect(await readStreamCounts(db)).toEqual({ 'device-0': 10, 'device-1': 10, 'device-2': 10, 'device-3': 10, 'device-4': 10 });
    const head = await appendSpread(store, { count: 5, streams: 5 });
    await runtime.waitForPosition(head);
    expect(await readStreamCounts(db)).toMatchObject({ 'device-0': 11, 'device-4': 11 });
    await eventually(async () => (await stateOf(runtime)) === 'live');
    expect(await runtime.status()).toEqual([
      { name: 'test-stream-counter', version: 1, position: 55, state: 'live', lag: 0, failures: 0 },
    ]);
    await runtime.stop();
    expect(await stateOf(runtime)).toBe('idle');
  });

  it('moves the checkpoint over events it does not read', async () => {
    const db = await open();
    await store.append('device-1', [testEvent('other.Happened'), testEvent('other.Happened')], { expected: 'any' });
    await store.append('host-1', [testEvent('test.Counted')], { expected: 'any' });
    const runtime = await startRuntime({ db, processors: [streamCounterProjection({ categories: ['device'] })] });
    await runtime.waitForPosition(3);
    expect(await readStreamCounts(db)).toEqual({});
    expect(await readCheckpoint(db, 'test-stream-counter')).toEqual({ version: 1, position: 3 });
  });

  it('moves neither read model nor checkpoint when an event fails mid-batch, and retries it', async () => {
    const db = await open();
    await appendSpread(store, { count: 10, streams: 2 });
    let broken = true;
    const projection = streamCounterProjection();
    const logger = capturingLogger();
    const failing: Processor = {
      ...projection,
      async apply(events, tx) {
        await projection.apply(events, tx);
        if (broken && events.some((event) => event.position === 6)) throw new Error('disk on fire');
      },
    };
    const runtime = await startRuntime({ db, processors: [failing], logger, maxRetryMs: 20 });
    await eventually(async () => (await stateOf(runtime)) === 'failed');
    expect(await readStreamCounts(db)).toEqual({});
    expect(await readCheckpoint(db, 'test-stream-counter')).toEqual({ version: 1, position: 0 });
    expect((await runtime.status())[0]).toMatchObject({ position: 0, lastError: expect.stringContaining('at positions 1-10: disk on fire') });
    expect(logger.lines.some((line) => line.startsWith('error:') && line.includes('disk on fire'))).toBe(true);
    broken = false;
    await runtime.waitForPosition(10);
    expect(await readStreamCounts(db)).toEqual({ 'device-0': 5, 'device-1': 5 });
    expect((await runtime.status())[0].failures).toBe(0);
  });

  it('rebuilds from position 0 when the version changes', async () => {
    const db = await open();
    await appendSpread(store, { count: 20, streams: 4 });
    const first = await startRuntime({ db, processors: [streamCounterProjection({ version: 1 })] });
    await first.waitForPosition(20);
    const built = await readStreamCounts(db);
    await first.stop();
    await db.run("INSERT INTO test_stream_counts (stream, events, last_position) VALUES ('stale', 99, 0)");
    const next = counted(streamCounterProjection({ version: 2 }));
    const second = await startRuntime({ db, processors: [next] });
    await second.waitForPosition(20);
    expect(next.applied).toBe(20);
    expect(await readStreamCounts(db)).toEqual(built);
    expect(await readCheckpoint(db, 'test-stream-counter')).toEqual({ version: 2, position: 20 });
  });

  it('keeps the checkpoint of an unchanged version across restarts', async () => {
    const db = await open();
    await appendSpread(store, { count: 6, streams: 2 });
    const first = await startRuntime({ db, processors: [streamCounterProjection()] });
    await first.waitForPosition(6);
    await first.stop();
    await appendSpread(store, { count: 2, streams: 2 });
    const again = counted(streamCounterProjection());
    const second = await startRuntime({ db, processors: [again] });
    await second.waitForPosition(8);
    expect(again.applied).toBe(2);
    expect(await readStreamCounts(db)).toEqual({ 'device-0': 4, 'device-1': 4 });
  });

  it('runs each processor in one instance while another stands by, which takes over when the first stops', async () => {
    const dbA = await open();
    const dbB = await open();
    const projectionA = counted(streamCounterProjection());
    const projectionB = counted(streamCounterProjection());
    await appendSpread(store, { count: 10, streams: 2 });
    const a = await startRuntime({ db: dbA, processors: [projectionA], owner: 'a', leaseTtlMs: 300 });
    await a.waitForPosition(10);
    const b = await startRuntime({ db: dbB, processors: [projectionB], owner: 'b', leaseTtlMs: 300 });
    await eventually(async () => (await stateOf(b)) === 'standby');
    await appendSpread(store, { count: 10, streams: 2 });
    await Promise.all([a.waitForPosition(20), b.waitForPosition(20)]);
    expect(projectionB.applied).toBe(0);
    expect(await stateOf(b)).toBe('standby');
    await a.stop();
    await appendSpread(store, { count: 4, streams: 2 });
    await b.waitForPosition(24);
    expect(projectionB.applied).toBe(4);
    expect(projectionA.applied).toBe(20);
    expect(await readStreamCounts(dbB)).toEqual({ 'device-0': 12, 'device-1': 12 });
  });

  it("takes over an expired lease and fences the stale owner's next batch", async () => {
    const dbA = await open();
    const dbB = await open();
    const projectionA = counted(streamCounterProjection());
    const projectionB = counted(streamCounterProjection());
    const loggerA = capturingLogger();
    // A's clock stands still, so A never renews and believes it holds the lease.
    const clockA: Clock = () => 1_000_000;
    let nowB = 1_000_000;
    await appendSpread(store, { count: 4, streams: 2 });
    const a = await startRuntime({ db: dbA, processors: [projectionA], owner: 'a', leaseTtlMs: 300, clock: clockA, logger: loggerA });
    await a.waitForPosition(4);
    const b = await startRuntime({ db: dbB, processors: [projectionB], owner: 'b', leaseTtlMs: 300, clock: () => nowB });
    await eventually(async () => (await stateOf(b)) === 'standby');
    nowB += 301;
    await eventually(async () => (await stateOf(b)) !== 'standby');
    await appendSpread(store, { count: 6, streams: 2 });
    await b.waitForPosition(10);
    await eventually(async () => (await stateOf(a)) === 'standby');
    expect(projectionA.applied).toBe(4);
    expect(projectionB.applied).toBe(6);
    expect(loggerA.lines).toContainEqual(expect.stringMatching(/a no longer holds the lease of test-stream-counter/));
    expect(await readStreamCounts(dbA)).toEqual({ 'device-0': 5, 'device-1': 5 });
  });

  it('builds the same read model when every batch is fed twice, and when every event comes alone', async () => {
    const once = await open();
    const twice = await databases.open(`${dbName}_twice`);
    await appendSpread(store, { count: 30, streams: 3 });
    const projection = streamCounterProjection();
    const doubled: Processor = {
      ...projection,
      async apply(events, tx) {
        await projection.apply(events, tx);
        await projection.apply(events, tx);
      },
    };
    const single = await startRuntime({ db: once, processors: [projection], batchSize: 4 });
    const double = await startRuntime({ db: twice, processors: [doubled], batchSize: 4, owner: 'double' });
    await Promise.all([single.waitForPosition(30), double.waitForPosition(30)]);
    const expected = await readStreamCounts(once);
    expect(expected).toEqual({ 'device-0': 10, 'device-1': 10, 'device-2': 10 });
    expect(await readStreamCounts(twice)).toEqual(expected);
    await double.stop();
    const { events } = await store.readAll({ max: 100 });
    await twice.transaction((tx) => projection.apply(events, tx));
    expect(await readStreamCounts(twice)).toEqual(expected);
    await twice.transaction(async (tx) => {
      for (const event of events) await projection.apply([event], tx);
    });
    expect(await readStreamCounts(twice)).toEqual(expected);
    const alone = await databases.open(`${dbName}_alone`);
    await alone.transaction(async (tx) => {
      await projection.setup(tx);
      for (const event of events) await projection.apply([event], tx);
    });
    expect(await readStreamCounts(alone)).toEqual(expected);
  });

  it('rejects waitForPosition at its timeout, naming the processors behind', async () => {
    const db = await open();
    const runtime = await startRuntime({ db, processors: [streamCounterProjection()] });
    const wait = runtime.waitForPosition(5, { timeoutMs: 50 });
    await expect(wait).rejects.toBeInstanceOf(PositionNotReachedError);
    await expect(wait).rejects.toThrow(/test-stream-counter@0/);
  });

  it('waits for the processors named, not for one that lags behind them', async () => {
    const db = await open();
    // Fails (and is retried) until released: a transaction held open would block the other's commit on SQLite.
    let failing = true;
    const release = (): void => void (failing = false);
    const stalled: Processor = {
      ...streamCounterProjection({ name: 'stalled' }),
      apply: () => (failing ? Promise.reject(new Error('not yet')) : Promise.resolve()),
    };
    const runtime = await startRuntime({ db, processors: [streamCounterProjection(), stalled] });
    await appendSpread(store, { count: 3, streams: 1 });
    await runtime.waitForPosition(3, { processors: ['test-stream-counter'], timeoutMs: 5000 });
    await expect(runtime.waitForPosition(3, { timeoutMs: 50 })).rejects.toThrow(/stalled@0/);
    await expect(runtime.waitForPosition(3, { processors: ['nope'] })).rejects.toThrow(/no processor is named nope/);
    release();
    await runtime.waitForPosition(3, { processors: ['stalled'] });
  });

  it('rejects pending waits when it stops', async () => {
    const db = await open();
    const runtime = await startRuntime({ db, processors: [streamCounterProjection()] });
    const wait = runtime.waitForPosition(5);
    await runtime.stop();
    await expect(wait).rejects.toThrow(/stopped/);
  });
}
