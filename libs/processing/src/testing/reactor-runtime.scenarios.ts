import type { EventStore, RecordedEvent } from '@ledger/eventstore';
import { currentLogContext, type LogContext } from '@ledger/kernel';
import { readCheckpoint } from '../checkpoints/checkpoint';
import type { Clock } from '../leases/clock';
import { listParkedEvents } from '../reactors/parked-events';
import { reactorKey } from '../reactors/reactor';
import { ReactorRuntime, type ReactorRuntimeOptions } from '../reactors/reactor-runtime';
import type { SqlDatabase } from '../sql/sql-database.port';
import { capturingLogger } from './capturing-logger';
import { ControllableOutside } from './controllable-outside';
import { eventually } from './eventually';
import type { RuntimeScenarioSetup } from './processor-runtime.scenarios';
import { appendSpread, testEvent } from './test-events';
import type { TestDatabases } from './test-databases';

const HOUR = 3_600_000;

/** The reactor runtime against one SqlDatabase adapter and one event store. */
export function reactorRuntimeScenarios(setup: RuntimeScenarioSetup): void {
  let databases: TestDatabases;
  let store: EventStore;
  let runtimes: ReactorRuntime[];
  let releases: (() => void)[];
  let count = 0;
  let db: SqlDatabase;
  let outside: ControllableOutside;

  beforeAll(() => {
    databases = setup.databases();
  });
  afterAll(() => databases.dispose());
  beforeEach(async () => {
    store = await setup.store();
    runtimes = [];
    releases = [];
    outside = new ControllableOutside();
    db = await databases.open(`reactors_${++count}`);
  });
  afterEach(async () => {
    for (const release of releases) release();
    await Promise.all(runtimes.map((runtime) => runtime.stop()));
    await store.close();
  });

  const start = async (options: Partial<ReactorRuntimeOptions> = {}): Promise<ReactorRuntime> => {
    const runtime = new ReactorRuntime({
      store,
      db,
      owner: 'test-owner',
      reactors: [outside.reactor()],
      logger: capturingLogger(),
      unavailableBackoff: { initialMs: 1, maxMs: 4 },
      rejectedBackoff: { initialMs: 1, maxMs: 4 },
      maxAttempts: 3,
      ...options,
    });
    runtimes.push(runtime);
    await runtime.start();
    return runtime;
  };
  const allEvents = async (): Promise<RecordedEvent[]> => (await store.readAll({ max: 1000 })).events;
  const checkpoint = async (): Promise<number | undefined> => (await readCheckpoint(db, reactorKey('test-outside')))?.position;

  it('reacts to every event in order and moves the checkpoint only once the outside acknowledged', async () => {
    await appendSpread(store, { count: 6, streams: 2 });
    const release = outside.hold(4);
    releases.push(release);
    const runtime = await start();
    await eventually(() => outside.calls.includes(4));
    expect(await checkpoint()).toBe(3);
    expect((await runtime.status())[0]).toMatchObject({ name: 'test-outside', position: 3, lag: 3, parked: 0 });
    release();
    await runtime.waitForPosition(6);
    expect(await checkpoint()).toBe(6);
    expect(outside.positionsAcknowledged(await allEvents())).toEqual([1, 2, 3, 4, 5, 6]);
    expect(outside.calls).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('retries through hours of the outside being down, never parks, and then delivers everything', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    // Every call costs ten minutes of the runtime's clock: forty calls are most of seven hours.
    outside.onCall = () => (now += 10 * 60_000);
    outside.up = false;
    await appendSpread(store, { count: 3, streams: 1 });
    // The clock also ticks a millisecond per reading, so that backoff waits end.
    const runtime = await start({ clock: () => ++now, leaseTtlMs: 24 * HOUR });
    await eventually(() => outside.calls.length >= 40);
    const down = (await runtime.status())[0];
    expect(down).toMatchObject({ state: 'unavailable', position: 0, parked: 0, });
    expect(down.unavailableSince! < '2026-01-01T00:11:00.000Z').toBe(true);
    expect(down.failures).toBeGreaterThanOrEqual(40);
    expect(down.retrying).toMatchObject({ position: 1 });
    expect(now - Date.parse(down.unavailableSince!)).toBeGreaterThan(6 * HOUR);
    const head = await appendSpread(store, { count: 2, streams: 1 });
    outside.up = true;
    await runtime.waitForPosition(head);
    expect(outside.positionsAcknowledged(await allEvents())).toEqual([1, 2, 3, 4, 5]);
    expect(await listParkedEvents(db, 'test-outside')).toEqual([]);
    const after = (await runtime.status())[0];
    expect(after).toMatchObject({ failures: 0, parked: 0 });
    expect(after.unavailableSince).toBeUndefined();
  });

  it('shows a reactor stalled once a call has been outstanding for the bound, naming the call, and no longer once it is answered', async () => {
    const startedAt = Date.parse('2026-01-01T00:00:00Z');
    let now = startedAt;
    await appendSpread(store, { count: 3, streams: 1 });
    const release = outside.hold(2);
    releases.push(release);
    const runtime = await start({ clock: () => now, stalledAfterMs: 5000, leaseTtlMs: 24 * HOUR });
    await eventually(() => outside.calls.includes(2));
    now = startedAt + 4999;
    const waiting = (await runtime.status())[0];
    expect(waiting.state).not.toBe('stalled');
    expect(waiting.stalled).toBeUndefined();
    now = startedAt + 5000;
    const [, second] = await allEvents();
    expect((await runtime.status())[0]).toMatchObject({
      state: 'stalled',
      position: 1,
      lag: 2,
      stalled: { position: 2, eventId: second.id, events: 1, since: '2026-01-01T00:00:00.000Z' },
    });
    release();
    await runtime.waitForPosition(3);
    await eventually(async () => (await runtime.status())[0].state === 'live');
    expect((await runtime.status())[0].stalled).toBeUndefined();
  });

  it('shows a reactor whose outside is down unavailable while a retry hangs, with the hanging call', async () => {
    const startedAt = Date.parse('2026-01-01T00:00:00Z');
    let now = startedAt;
    outside.up = false;
    await appendSpread(store, { count: 1, streams: 1 });
    const runtime = await start({ clock: () => now, stalledAfterMs: 5000, leaseTtlMs: 24 * HOUR });
    await eventually(async () => (await runtime.status())[0].state === 'unavailable');
    releases.push(outside.hold(1));
    now = startedAt + 60_000; // past any backoff: the next attempt goes out, and hangs
    await eventually(() => outside.calls.length === 2);
    now = startedAt + 65_000;
    expect((await runtime.status())[0]).toMatchObject({ state: 'unavailable', stalled: { position: 1, since: '2026-01-01T00:01:00.000Z' } });
  });

  it('parks an event the outside keeps refusing after the attempts, and goes on with the rest', async () => {
    await appendSpread(store, { count: 5, streams: 2 });
    outside.refusing.add(3);
    const runtime = await start();
    await runtime.waitForPosition(5);
    const events = await allEvents();
    expect(outside.positionsAcknowledged(events)).toEqual([1, 2, 4, 5]);
    expect(outside.calls.filter((position) => position === 3)).toHaveLength(3);
    const [parked] = await listParkedEvents(db, 'test-outside');
    expect(parked).toMatchObject({
      reactor: 'test-outside',
      position: 3,
      eventId: events[2].id,
      type: 'test.Counted',
      stream: events[2].stream,
      attempts: 3,
      error: 'outside refuses position 3',
      retryRequestedAt: null,
    });
    expect(parked.firstFailedAt <= parked.lastFailedAt).toBe(true);
    expect((await runtime.status())[0]).toMatchObject({ parked: 1, failures: 0, position: 5 });
    expect(await runtime.parked('test-outside')).toEqual([parked]);
  });

  it("retries a parked event on an operator's request: failed, it stays parked; delivered, it is gone", async () => {
    await appendSpread(store, { count: 3, streams: 1 });
    outside.refusing.add(2);
    const runtime = await start();
    await runtime.waitForPosition(3);
    await eventually(async () => (await runtime.status())[0].state === 'live');
    expect(await runtime.retryParked('test-outside', 2)).toEqual({ outcome: 'failed', error: 'outside refuses position 2' });
    expect(await runtime.parked('test-outside')).toMatchObject([{ position: 2, attempts: 4 }]);
    outside.refusing.clear();
    expect(await runtime.retryParked('test-outside', 2)).toEqual({ outcome: 'delivered' });
    expect(await runtime.parked('test-outside')).toEqual([]);
    expect(outside.positionsAcknowledged(await allEvents())).toEqual([1, 3, 2]);
    await expect(runtime.retryParked('test-outside', 2)).rejects.toMatchObject({ code: 'REACTOR.PARKED_NOT_FOUND' });
    await expect(runtime.retryParked('nobody', 2)).rejects.toMatchObject({ code: 'REACTOR.NOT_FOUND' });
  });

  it('hands a retry asked of a standby instance to the one that runs the reactor', async () => {
    await appendSpread(store, { count: 2, streams: 1 });
    outside.refusing.add(1);
    const active = await start({ owner: 'a', leaseTtlMs: 300 });
    await active.waitForPosition(2);
    const standby = await start({ owner: 'b', leaseTtlMs: 300 });
    await eventually(async () => (await standby.status())[0].state === 'standby');
    outside.refusing.clear();
    expect(await standby.retryParked('test-outside', 1)).toEqual({ outcome: 'requested' });
    await eventually(async () => (await active.parked('test-outside')).length === 0);
    expect(outside.positionsAcknowledged(await allEvents())).toEqual([2, 1]);
  });

  it('resumes from the checkpoint when another instance takes the lease over', async () => {
    await appendSpread(store, { count: 4, streams: 2 });
    const a = await start({ owner: 'a', leaseTtlMs: 300 });
    await a.waitForPosition(4);
    const b = await start({ owner: 'b', leaseTtlMs: 300 });
    await eventually(async () => (await b.status())[0].state === 'standby');
    await a.stop();
    const head = await appendSpread(store, { count: 3, streams: 2 });
    await b.waitForPosition(head);
    expect(outside.calls).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('after a crash, the next instance re-sends only the unacknowledged tail, and the stale one cannot move the checkpoint', async () => {
    await appendSpread(store, { count: 6, streams: 2 });
    const release = outside.hold(4);
    releases.push(release);
    // A's clock stands still: it never renews, as if it had died holding the call to position 4.
    const clockA: Clock = () => 1_000_000;
    let nowB = 1_000_000;
    const loggerA = capturingLogger();
    await start({ owner: 'a', leaseTtlMs: 300, clock: clockA, logger: loggerA });
    await eventually(() => outside.calls.includes(4));
    const b = await start({ owner: 'b', leaseTtlMs: 300, clock: () => nowB });
    await eventually(async () => (await b.status())[0].state === 'standby');
    nowB += 301;
    await eventually(() => outside.calls.length > 4);
    await b.waitForPosition(6);
    expect(outside.calls).toEqual([1, 2, 3, 4, 4, 5, 6]);
    release();
    await eventually(() => loggerA.lines.some((line) => /a no longer holds the lease of reactor:test-outside/.test(line)));
    expect(await checkpoint()).toBe(6);
    expect(outside.positionsAcknowledged(await allEvents())).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('sends batches through reactBatch, and isolates a refused event one at a time to park it', async () => {
    outside.refusing.add(5);
    await appendSpread(store, { count: 8, streams: 3 });
    const runtime = await start({ reactors: [outside.reactor({ batches: true })], batchSize: 4 });
    await runtime.waitForPosition(8);
    expect(outside.positionsAcknowledged(await allEvents())).toEqual([1, 2, 3, 4, 6, 7, 8]);
    expect(outside.calls.slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(await runtime.parked('test-outside')).toMatchObject([{ position: 5 }]);
  });

  it("logs what it does for an event with that event's correlation id and id, and nothing else with them", async () => {
    for (const correlationId of ['request-a', 'request-b']) {
      const event = testEvent('test.Counted');
      await store.append('device-0', [{ ...event, metadata: { ...event.metadata, correlationId } }], { expected: 'any' });
    }
    outside.refusing.add(2);
    const lines: { line: string; context: LogContext | undefined }[] = [];
    const at = (level: string) => (message: string) => void lines.push({ line: `${level}: ${message}`, context: currentLogContext() });
    const runtime = await start({ logger: { debug: at('debug'), log: at('log'), warn: at('warn'), error: at('error') } });
    await runtime.waitForPosition(2);
    const [first, second] = await allEvents();
    const failures = lines.filter(({ line }) => line.includes('test.Counted at position 2') || line.includes('parked test.Counted'));
    expect(failures.length).toBeGreaterThanOrEqual(2);
    for (const { context } of failures) expect(context).toEqual({ correlationId: 'request-b', eventId: second.id });
    expect(lines.filter(({ context }) => context?.eventId === first.id)).toEqual([]);
    expect(lines.filter(({ line }) => line.includes('lease taken')).map(({ context }) => context)).toEqual([undefined]);
  });

  it('starts at the head when asked to, and keeps its checkpoint across restarts', async () => {
    await appendSpread(store, { count: 3, streams: 1 });
    const first = await start({ reactors: [outside.reactor({ startAt: 'head' })] });
    await eventually(async () => (await first.status())[0].state === 'live');
    const head = await appendSpread(store, { count: 2, streams: 1 });
    await first.waitForPosition(head);
    await first.stop();
    const next = await appendSpread(store, { count: 1, streams: 1 });
    const second = await start({ reactors: [outside.reactor({ startAt: 'head' })] });
    await second.waitForPosition(next);
    expect(outside.calls).toEqual([4, 5, 6]);
  });
}
