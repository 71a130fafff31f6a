import 'reflect-metadata';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { type CommandContext, EVENT_STORE, STREAM_LOCKS, StreamLocks } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore } from '@ledger/processing/testing';
import { a100, arria10, hostReport, x710 } from '../../domain/testing/host-report.fixtures';
import { InventoryModule } from '../inventory.module';
import { ConfirmUnchangedReportCommand } from './confirm-unchanged-report.command';
import { ReportHostCommand } from './report-host.command';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: '0196b3c2-0000-7000-8000-000000000003' };
const HOST = 'compute-1';
const report = hostReport(HOST, [a100(), x710()]);
const UNCHANGED = { appended: 0, position: undefined, version: 3, eventTypes: [] };

/** One ledger process: its own caches and memo, on a store it may share with another ("a replica"). */
async function replicaOn(store: InMemoryEventStore): Promise<{ app: INestApplicationContext; bus: CommandBus }> {
  @Global()
  @Module({ providers: [{ provide: EVENT_STORE, useValue: store }, { provide: STREAM_LOCKS, useValue: new StreamLocks() }], exports: [EVENT_STORE, STREAM_LOCKS] })
  class StoreModule {}
  @Module({ imports: [CqrsModule.forRoot(), StoreModule, InventoryModule] })
  class FixtureModule {}
  const app = await NestFactory.createApplicationContext(FixtureModule, { logger: false });
  return { app, bus: app.get(CommandBus) };
}

describe('ConfirmUnchangedReportCommand (the unchanged report short cut)', () => {
  let store: InMemoryEventStore;
  let replica: { app: INestApplicationContext; bus: CommandBus };
  const confirm = (digest: string, hostname = HOST) => replica.bus.execute(new ConfirmUnchangedReportCommand(hostname, digest));
  const reportWith = (digest: string | undefined, body = report, bus = replica.bus) => bus.execute(new ReportHostCommand(body, context, undefined, digest));

  beforeEach(async () => {
    store = new InMemoryEventStore();
    replica = await replicaOn(store);
  });
  afterEach(() => replica.app.close());

  it('knows a body once the full path has brought the host to it, or found the host at it', async () => {
    expect(await confirm('body-1')).toBeUndefined();
    expect((await reportWith('body-1')).appended).toBe(3);
    expect(await confirm('body-1')).toEqual(UNCHANGED);
    expect(await reportWith('body-2')).toEqual(UNCHANGED);
    expect(await confirm('body-1')).toBeUndefined();
    expect(await confirm('body-2')).toEqual(UNCHANGED);
  });

  it('answers only for the digest remembered, and only for its host', async () => {
    await reportWith('body-1');
    expect(await confirm('body-2')).toBeUndefined();
    expect(await confirm('body-1', 'compute-2')).toBeUndefined();
    await reportWith(undefined);
    expect(await confirm('body-1')).toEqual(UNCHANGED);
  });

  it('forgets the body once a report changed the host, and knows the one that changed it', async () => {
    await reportWith('body-1');
    expect((await reportWith('body-2', hostReport(HOST, [a100(), x710(), arria10()]))).eventTypes).toEqual(['inventory.DeviceDiscovered']);
    expect(await confirm('body-1')).toBeUndefined();
    expect(await confirm('body-2')).toEqual({ ...UNCHANGED, version: 4 });
    expect((await reportWith(undefined)).eventTypes).toEqual(['inventory.DeviceRemoved']);
    expect(await confirm('body-2')).toBeUndefined();
  });

  it('sees a change another replica appended meanwhile, and leaves it to the full path', async () => {
    await reportWith('body-1');
    await reportWith('body-1');
    expect(await confirm('body-1')).toEqual(UNCHANGED);
    const other = await replicaOn(store);
    try {
      expect((await reportWith('other-body', hostReport(HOST, [a100()]), other.bus)).eventTypes).toEqual(['inventory.DeviceRemoved']);
    } finally {
      await other.app.close();
    }
    expect(await confirm('body-1')).toBeUndefined();
    const full = await reportWith('body-1');
    expect(full.eventTypes).toEqual(['inventory.DeviceDiscovered']);
  });

  it('answers only while the host is as it was when the body was remembered: a report back to it is found again', async () => {
    await reportWith('body-1');
    await reportWith('body-1');
    const other = await replicaOn(store);
    try {
      await reportWith('other-body', hostReport(HOST, [a100()]), other.bus);
      await reportWith('other-body-2', report, other.bus);
    } finally {
      await other.app.close();
    }
    expect(await confirm('body-1')).toEqual({ ...UNCHANGED, version: 5 });
  });
});
