import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConflictError, type Decider, type DomainEvent } from '@ledger/kernel';
import { InvalidAppendError, WrongExpectedVersionError } from '@ledger/eventstore';
import { contractActor, newEvent, uniqueStream } from '@ledger/eventstore/testing';
import { openSqliteEventStore } from '../adapters/sqlite/open-sqlite-event-store';
import type { SqliteEventStore } from '../adapters/sqlite/sqlite-event-store';
import { AggregateCache } from './aggregate-cache';
import { handleMultiStreamCommand, type Participant } from './handle-multi-stream-command';
import { StreamLocks } from './stream-locks';

type Charged = DomainEvent<'test.Charged', { amount: number }>;
type Claimed = DomainEvent<'test.Claimed', { by: string }>;

/** A quota-like counter and a handle-like slot: enough to decide over two aggregates at once. */
const counter: Decider<never, { used: number }, Charged> = {
  decide: () => [],
  evolve: (state, event) => ({ used: state.used + event.data.amount }),
  initialState: () => ({ used: 0 }),
};
const slot: Decider<never, { holder: string | null }, Claimed> = {
  decide: () => [],
  evolve: (_, event) => ({ holder: event.data.by }),
  initialState: () => ({ holder: null }),
};

const LIMIT = 2;
const context = { actor: contractActor, correlationId: 'request-1' };

/** Claims the slot for `by` and charges the quota one unit, or refuses. */
const claim = (by: string) => (states: { slot: { holder: string | null }; quota: { used: number } }) => {
  if (states.slot.holder !== null) throw new ConflictError('TEST.SLOT_TAKEN', `held by ${states.slot.holder}`);
  if (states.quota.used >= LIMIT) throw new ConflictError('TEST.QUOTA_EXCEEDED', 'quota used up');
  return { slot: [{ type: 'test.Claimed' as const, data: { by } }], quota: [{ type: 'test.Charged' as const, data: { amount: 1 } }] };
};

describe('handleMultiStreamCommand', () => {
  let dir: string;
  let store: SqliteEventStore;
  const participants = (slotStream = uniqueStream('slot'), quotaStream = uniqueStream('quota')) => ({
    slot: { stream: slotStream, decider: slot, cache: new AggregateCache<{ holder: string | null }>() } satisfies Participant<{ holder: string | null }, Claimed>,
    quota: { stream: quotaStream, decider: counter, cache: new AggregateCache<{ used: number }>() } satisfies Participant<{ used: number }, Charged>,
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-multi-command-'));
    store = await openSqliteEventStore({ file: join(dir, 'events.sqlite') });
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decides over every participant and appends to all their streams in one commit', async () => {
    const roles = participants();
    await store.append(roles.quota.stream, [newEvent('test.Charged', { amount: 1 })], { expected: 'no_stream' });
    const result = await handleMultiStreamCommand(store, roles, claim('vm-1'), context, { schemaVersions: { 'test.Claimed': 2 } });
    expect(result).toMatchObject({ appended: 2, position: 3, states: { slot: { holder: 'vm-1' }, quota: { used: 2 } }, versions: { slot: 1, quota: 2 } });
    expect(store.stats()).toEqual({ transactions: 2, appends: 2 });
    const [claimed] = await store.readStream(roles.slot.stream);
    expect(claimed).toMatchObject({ position: 2, data: { by: 'vm-1' }, metadata: { correlationId: 'request-1', causationId: 'request-1', schemaVersion: 2 } });
    expect(roles.slot.cache.get(roles.slot.stream)).toEqual({ state: { holder: 'vm-1' }, version: 1 });
    expect(roles.quota.cache.get(roles.quota.stream)).toEqual({ state: { used: 2 }, version: 2 });
  });

  it("records a participant's events with its own context when it has one (a fact recorded as its requester asked it)", async () => {
    const roles = participants();
    const requester = { actor: { ...contractActor, user: 'requester' }, correlationId: 'request-0', causationId: 'request-1' };
    await handleMultiStreamCommand(store, { ...roles, quota: { ...roles.quota, context: requester } }, claim('vm-1'), context);
    const [claimed] = await store.readStream(roles.slot.stream);
    const [charged] = await store.readStream(roles.quota.stream);
    expect(claimed.metadata).toMatchObject({ correlationId: 'request-1', actor: contractActor });
    expect(charged.metadata).toMatchObject({ correlationId: 'request-0', causationId: 'request-1', actor: { user: 'requester' } });
    expect(charged.position).toBe(claimed.position + 1);
  });

  it('reloads and decides again when another writer moved one of the streams in between', async () => {
    const roles = participants();
    const quotaSeen: number[] = [];
    const result = await handleMultiStreamCommand(
      store,
      roles,
      (states) => {
        quotaSeen.push(states.quota.used);
        // Another writer's charge joins the same group commit ahead of this decision's append.
        if (quotaSeen.length === 1) void store.append(roles.quota.stream, [newEvent('test.Charged', { amount: 1 })], { expected: 'no_stream' });
        return claim('vm-1')(states);
      },
      context,
    );
    expect(quotaSeen).toEqual([0, 1]);
    expect(result).toMatchObject({ appended: 2, states: { slot: { holder: 'vm-1' }, quota: { used: 2 } }, versions: { slot: 1, quota: 2 } });
    expect(await store.readStream(roles.slot.stream)).toHaveLength(1);
  });

  it('refuses on fresh states, appending nothing, when the cached states were stale', async () => {
    const roles = participants();
    await handleMultiStreamCommand(store, roles, claim('vm-1'), context);
    // The caches fall behind, as when another replica decided: they still hold the states before vm-1's claim.
    roles.slot.cache.set(roles.slot.stream, { holder: null }, 0);
    roles.quota.cache.set(roles.quota.stream, { used: 0 }, 0);
    await expect(handleMultiStreamCommand(store, roles, claim('vm-2'), context)).rejects.toMatchObject({ code: 'TEST.SLOT_TAKEN' });
    expect(await store.headPosition()).toBe(2);
  });

  it('gives up with the conflict after maxAttempts', async () => {
    const roles = participants();
    let decisions = 0;
    const error = await handleMultiStreamCommand(
      store,
      roles,
      (states) => {
        decisions++;
        // Every decision is overtaken: the quota moves on before the append lands.
        void store.append(roles.quota.stream, [newEvent('test.Charged', { amount: 0 })], { expected: 'any' });
        return { quota: [{ type: 'test.Charged' as const, data: { amount: states.quota.used + 1 } }] };
      },
      context,
      { maxAttempts: 2 },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({ stream: roles.quota.stream });
    expect(decisions).toBe(2);
  });

  it('appends nothing when the decision has nothing to say', async () => {
    const roles = participants();
    const result = await handleMultiStreamCommand(store, roles, () => ({ slot: [] }), context);
    expect(result).toMatchObject({ appended: 0, position: undefined, versions: { slot: 0, quota: 0 } });
    expect(await store.headPosition()).toBe(0);
  });

  it('refuses two participants on one stream', async () => {
    const stream = uniqueStream('slot');
    await expect(handleMultiStreamCommand(store, participants(stream, stream), claim('vm-1'), context)).rejects.toBeInstanceOf(InvalidAppendError);
  });

  it('queues decisions over overlapping streams under locks, so none conflicts and none waits forever', async () => {
    const locks = new StreamLocks();
    const [a, b, c] = [uniqueStream('quota'), uniqueStream('quota'), uniqueStream('quota')];
    const charge = (first: string, second: string) =>
      handleMultiStreamCommand(
        store,
        { first: { stream: first, decider: counter }, second: { stream: second, decider: counter } },
        () => ({ first: [{ type: 'test.Charged' as const, data: { amount: 1 } }], second: [{ type: 'test.Charged' as const, data: { amount: 1 } }] }),
        context,
        { locks, maxAttempts: 1 },
      );
    await Promise.all([charge(a, b), charge(b, a), charge(b, c), charge(c, a), charge(a, c), charge(c, b)]);
    for (const stream of [a, b, c]) expect(await store.readStream(stream)).toHaveLength(4);
    expect(locks.busy).toBe(0);
  });
});
