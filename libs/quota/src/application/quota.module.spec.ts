import 'reflect-metadata';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { type CommandContext, EVENT_STORE, STREAM_LOCKS, StreamLocks, WrongExpectedVersionError } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore } from '@ledger/processing/testing';
import { QuotaModule } from './quota.module';
import { QuotaReader } from './quota.reader';
import { ReleaseQuotaCommand } from './release-quota/release-quota.command';
import { ReserveQuotaCommand } from './reserve-quota/reserve-quota.command';
import { SetQuotaLimitsCommand } from './set-quota-limits/set-quota-limits.command';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: '0196b3c2-0000-7000-8000-000000000001' };

/** A Nest app with the quota module on `store`: two of them on one store behave like two ledger replicas. */
async function quotaApp(store: InMemoryEventStore): Promise<INestApplicationContext> {
  @Global()
  @Module({ providers: [{ provide: EVENT_STORE, useValue: store }, { provide: STREAM_LOCKS, useValue: new StreamLocks() }], exports: [EVENT_STORE, STREAM_LOCKS] })
  class StoreModule {}
  @Module({ imports: [CqrsModule.forRoot(), StoreModule, QuotaModule] })
  class FixtureModule {}
  return NestFactory.createApplicationContext(FixtureModule, { logger: false });
}

const reserveOne = (consumerId: string, project = 'p1') =>
  new ReserveQuotaCommand({ project, consumers: [{ consumerId, resources: { FPGA: 1 } }] }, context);

/** Runs every command, then counts fulfilled ones and the codes of the rejected ones. */
async function outcomes(runs: Promise<unknown>[]): Promise<{ ok: number; codes: Record<string, number> }> {
  const settled = await Promise.allSettled(runs);
  const codes: Record<string, number> = {};
  for (const result of settled) {
    if (result.status !== 'rejected') continue;
    const code = String(result.reason?.code ?? result.reason);
    codes[code] = (codes[code] ?? 0) + 1;
  }
  return { ok: settled.filter((result) => result.status === 'fulfilled').length, codes };
}

describe('QuotaModule (command side, in a small Nest app)', () => {
  let store: InMemoryEventStore;
  let app: INestApplicationContext;
  let bus: CommandBus;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    app = await quotaApp(store);
    bus = app.get(CommandBus);
  });
  afterEach(() => app.close());

  it('sets limits, reserves, releases, and reads the state back from the stream', async () => {
    const set = await bus.execute(new SetQuotaLimitsCommand({ project: 'p1', limits: { FPGA: 2, 'capacity:memoryGiB': 64 } }, context));
    expect(set).toEqual({ appended: 2, position: 2 });
    expect(await bus.execute(new SetQuotaLimitsCommand({ project: 'p1', limits: { FPGA: 2 } }, context))).toEqual({ appended: 0, position: null });

    const reserve = new ReserveQuotaCommand(
      { project: 'p1', consumers: [{ consumerId: 'arq-1', resources: { FPGA: 1, 'capacity:memoryGiB': 32 } }] },
      context,
    );
    expect(await bus.execute(reserve)).toEqual({ appended: 1, position: 3 });
    expect(await bus.execute(reserve)).toEqual({ appended: 0, position: null });

    const reader = app.get(QuotaReader);
    expect(await reader.read('p1')).toEqual({
      project: 'p1',
      limits: { FPGA: 2, 'capacity:memoryGiB': 64 },
      usage: { FPGA: 1, 'capacity:memoryGiB': 32 },
      reservations: [{ consumerId: 'arq-1', resources: { FPGA: 1, 'capacity:memoryGiB': 32 } }],
      version: 3,
    });

    expect(await bus.execute(new ReleaseQuotaCommand({ project: 'p1', consumerIds: ['arq-1', 'arq-9'] }, context))).toEqual({
      appended: 1,
      position: 4,
    });
    expect(await reader.read('p1')).toMatchObject({ usage: {}, reservations: [], version: 4 });
    expect(await reader.read('p2')).toEqual({ project: 'p2', limits: {}, usage: {}, reservations: [], version: 0 });

    const events = await store.readStream('quota-p1');
    expect(events.map((event) => event.type)).toEqual(['quota.LimitSet', 'quota.LimitSet', 'quota.Reserved', 'quota.Released']);
    expect(events[2].metadata).toEqual({ correlationId: context.correlationId, causationId: context.correlationId, actor: SYSTEM_ACTOR, schemaVersion: 1 });
  });

  it('refuses bad input and a full quota with coded errors, recording nothing', async () => {
    await bus.execute(new SetQuotaLimitsCommand({ project: 'p1', limits: { FPGA: 1 } }, context));
    await bus.execute(reserveOne('arq-1'));
    const head = await store.headPosition();
    await expect(bus.execute(reserveOne('arq-2'))).rejects.toMatchObject({ code: 'QUOTA.EXCEEDED', status: 403 });
    await expect(bus.execute(reserveOne('arq-2', 'bad project'))).rejects.toMatchObject({ code: 'QUOTA.INVALID', facts: { path: 'project' } });
    await expect(bus.execute(new SetQuotaLimitsCommand({ project: 'p1', limits: { DPU: 1 } }, context))).rejects.toMatchObject({
      code: 'QUOTA.INVALID',
      status: 400,
    });
    await expect(app.get(QuotaReader).read('../etc')).rejects.toMatchObject({ code: 'QUOTA.INVALID' });
    expect(await store.headPosition()).toBe(head);
  });

  it('lets exactly the limit through when 64 reservations race in one process', async () => {
    await bus.execute(new SetQuotaLimitsCommand({ project: 'p1', limits: { FPGA: 10 } }, context));
    const result = await outcomes(Array.from({ length: 64 }, (_, i) => bus.execute(reserveOne(`arq-${i}`))));
    expect(result).toEqual({ ok: 10, codes: { 'QUOTA.EXCEEDED': 54 } });
    expect((await app.get(QuotaReader).read('p1')).usage).toEqual({ FPGA: 10 });
  });

  it('lets exactly the limit through when two replicas race on one store (expected-version retries)', async () => {
    const other = await quotaApp(store);
    const append = store.append.bind(store);
    let conflicts = 0;
    jest.spyOn(store, 'append').mockImplementation((...args) =>
      append(...args).catch((error) => {
        if (error instanceof WrongExpectedVersionError) conflicts++;
        throw error;
      }),
    );
    try {
      await bus.execute(new SetQuotaLimitsCommand({ project: 'p1', limits: { FPGA: 10 } }, context));
      const buses = [bus, other.get(CommandBus)];
      const result = await outcomes(Array.from({ length: 64 }, (_, i) => buses[i % 2].execute(reserveOne(`arq-${i}`))));
      expect(result).toEqual({ ok: 10, codes: { 'QUOTA.EXCEEDED': 54 } });
      const reserved = (await store.readStream('quota-p1')).filter((event) => event.type === 'quota.Reserved');
      expect(reserved).toHaveLength(10);
      expect(conflicts).toBeGreaterThan(0);
      expect((await other.get(QuotaReader).read('p1')).usage).toEqual({ FPGA: 10 });
    } finally {
      await other.close();
    }
  });
});
