import 'reflect-metadata';
import { Global, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { type AggregateCache, type CommandContext, EVENT_STORE, STREAM_LOCKS, StreamLocks } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore, testEvent } from '@ledger/processing/testing';
import { QUOTA_CACHE, type QuotaState, quotaStream, SetQuotaLimitsCommand } from '@ledger/quota';
import { QuotaModule } from '@ledger/quota/nest';
import { arqStream } from '../../../domain/arq.events';
import type { LiveArq } from '../../../domain/arq.state';
import { CreateDeviceProfileCommand } from '../../device-profiles/create-device-profile.command';
import { DEVICE_PROFILE_PROVIDERS } from '../../device-profiles/device-profile.providers';
import { arqStoreProvider } from '../arq-store';
import { CreateArqsCommand } from './create-arqs.command';
import { CreateArqsHandler } from './create-arqs.handler';
import { CreateArqsAtOnce } from './create-at-once';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: '0196b3c2-0000-7000-8000-000000000002' };
const PROJECT = 'project-a';

describe('creating accelerator requests (in a small Nest app)', () => {
  let app: INestApplicationContext;
  let bus: CommandBus;
  let store: InMemoryEventStore;
  /** The streams of every appendMany (a single append is one of one stream), in call order. */
  let appends: string[][];

  const start = async (multiStreamAppend: boolean) => {
    store = new InMemoryEventStore();
    // EventStoreDB's answer, on a store that is otherwise the same.
    if (!multiStreamAppend) Object.defineProperty(store, 'multiStreamAppend', { value: false });
    @Global()
    @Module({ providers: [{ provide: EVENT_STORE, useValue: store }, { provide: STREAM_LOCKS, useValue: new StreamLocks() }], exports: [EVENT_STORE, STREAM_LOCKS] })
    class StoreModule {}
    @Module({ imports: [CqrsModule.forRoot(), StoreModule, QuotaModule], providers: [...DEVICE_PROFILE_PROVIDERS, arqStoreProvider, CreateArqsHandler, CreateArqsAtOnce] })
    class FixtureModule {}
    app = await NestFactory.createApplicationContext(FixtureModule, { logger: false });
    bus = app.get(CommandBus);
    await bus.execute(new CreateDeviceProfileCommand({ name: 'two-fpgas', groups: [{ 'resources:FPGA': '2' }] }, context));
    await bus.execute(new SetQuotaLimitsCommand({ project: PROJECT, limits: { FPGA: 3 } }, context));
    appends = [];
    const appendMany = store.appendMany.bind(store);
    jest.spyOn(store, 'appendMany').mockImplementation((batch) => (appends.push(batch.map((append) => append.stream)), appendMany(batch)));
  };
  const create = () => bus.execute(new CreateArqsCommand({ deviceProfileName: 'two-fpgas', groupId: null, projectId: PROJECT }, context)) as Promise<LiveArq[]>;

  afterEach(() => app.close());

  describe('on a store with multi-stream append', () => {
    beforeEach(() => start(true));

    it('appends the reservation and every request in one append, at consecutive positions', async () => {
      const head = await store.headPosition();
      const arqs = await create();
      expect(arqs).toHaveLength(2);
      expect(appends).toEqual([[quotaStream(PROJECT), ...arqs.map((arq) => arqStream(arq.uuid))]]);
      const { events } = await store.readAll({ after: head });
      expect(events.map((event) => [event.type, event.position])).toEqual([
        ['quota.Reserved', head + 1],
        ['quota.Reserved', head + 2],
        ['allocation.ArqCreated', head + 3],
        ['allocation.ArqCreated', head + 4],
      ]);
      expect(events.slice(0, 2).map((event) => event.data)).toEqual(arqs.map((arq) => ({ project: PROJECT, consumerId: arq.uuid, resources: { FPGA: 1 } })));
    });

    it('refuses over quota with QUOTA.EXCEEDED and records nothing', async () => {
      await create();
      const head = await store.headPosition();
      appends = [];
      await expect(create()).rejects.toMatchObject({ code: 'QUOTA.EXCEEDED', status: 403 });
      expect(appends).toEqual([]);
      expect(await store.headPosition()).toBe(head);
    });

    it("checks the quota stream's version: decided again on another replica's reservation, it refuses and records nothing", async () => {
      // 4 units: 2 used after this create, and 2 more fit by the quota this process reads next.
      await bus.execute(new SetQuotaLimitsCommand({ project: PROJECT, limits: { FPGA: 4 } }, context));
      await create();
      const quota = quotaStream(PROJECT);
      const head = await store.headPosition();
      // Another replica reserves a unit just after this process read the quota stream, before its append.
      const readStream = store.readStream.bind(store);
      let raced = false;
      jest.spyOn(store, 'readStream').mockImplementation(async (stream, options) => {
        const events = await readStream(stream, options);
        if (stream === quota && !raced) {
          raced = true;
          await store.append(quota, [testEvent('quota.Reserved', { project: PROJECT, consumerId: 'elsewhere', resources: { FPGA: 1 } })], { expected: 'any' });
        }
        return events;
      });
      appends = [];
      await expect(create()).rejects.toMatchObject({ code: 'QUOTA.EXCEEDED' });
      // The other replica's append, then this decision's, refused by the expected version; decided again on fresh states, it refused.
      expect(appends).toEqual([[quota], [quota, expect.stringMatching(/^arq-/), expect.stringMatching(/^arq-/)]]);
      expect(await store.headPosition()).toBe(head + 1);
    });

    it("leaves the quota commands' cache at the appended reservations, so the next command reads no tail", async () => {
      await create();
      const cached = app.get<AggregateCache<QuotaState>>(QUOTA_CACHE).get(quotaStream(PROJECT));
      expect(cached?.version).toBe((await store.readStream(quotaStream(PROJECT))).length);
      expect(cached?.state.usage).toEqual({ FPGA: 2 });
    });
  });

  describe('on a store without (EventStoreDB)', () => {
    beforeEach(() => start(false));

    it('reserves the quota first, then appends each request on its own', async () => {
      const arqs = await create();
      expect(appends).toEqual([[quotaStream(PROJECT)], ...arqs.map((arq) => [arqStream(arq.uuid)])]);
      await expect(create()).rejects.toMatchObject({ code: 'QUOTA.EXCEEDED', status: 403 });
      expect(appends).toHaveLength(3);
    });
  });
});
