import 'reflect-metadata';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { type CommandContext, EVENT_STORE, STREAM_LOCKS, StreamLocks } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore } from '@ledger/processing/testing';
import { a100, hostReport, x710 } from '../domain/testing/host-report.fixtures';
import { deviceUuidOf } from '../domain/identity';
import { DisableDeviceCommand } from './disable-device/disable-device.command';
import { EnableDeviceCommand } from './enable-device/enable-device.command';
import { InventoryModule } from './inventory.module';
import { ReportHostCommand } from './report-host/report-host.command';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: '0196b3c2-0000-7000-8000-000000000001' };

describe('InventoryModule (command side, in a small Nest app)', () => {
  let app: INestApplicationContext;
  let bus: CommandBus;
  let store: InMemoryEventStore;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    @Global()
    @Module({ providers: [{ provide: EVENT_STORE, useValue: store }, { provide: STREAM_LOCKS, useValue: new StreamLocks() }], exports: [EVENT_STORE, STREAM_LOCKS] })
    class StoreModule {}
    @Module({ imports: [CqrsModule.forRoot(), StoreModule, InventoryModule] })
    class FixtureModule {}
    app = await NestFactory.createApplicationContext(FixtureModule, { logger: false });
    bus = app.get(CommandBus);
  });

  afterEach(() => app.close());

  it('records a first report atomically on the host stream and nothing for a repeat', async () => {
    const report = hostReport('compute-1', [a100(), x710()]);
    const first = await bus.execute(new ReportHostCommand(report, context, '2026-03-01T10:00:00.000Z'));
    expect(first).toEqual({
      appended: 3,
      version: 3,
      position: 3,
      eventTypes: ['inventory.HostRegistered', 'inventory.DeviceDiscovered', 'inventory.DeviceDiscovered'],
    });
    const events = await store.readStream('host-compute-1');
    expect(events.map((event) => event.metadata)).toEqual(
      Array(3).fill({ correlationId: context.correlationId, causationId: context.correlationId, actor: SYSTEM_ACTOR, schemaVersion: 1 }),
    );
    expect(await bus.execute(new ReportHostCommand(report, context))).toEqual({ appended: 0, version: 3, position: undefined, eventTypes: [] });
  });

  it('refuses an invalid report with a coded error and records nothing', async () => {
    await expect(bus.execute(new ReportHostCommand(hostReport('bad host', []), context))).rejects.toMatchObject({
      code: 'INVENTORY.REPORT_INVALID',
      facts: expect.objectContaining({ path: 'hostname' }),
    });
    await expect(bus.execute(new ReportHostCommand(hostReport('compute-1', [{ ...a100(), vendorId: 'zz' }]), context))).rejects.toMatchObject({
      code: 'INVENTORY.REPORT_INVALID',
      status: 400,
    });
    expect(await store.headPosition()).toBe(0);
  });

  it('disables and enables a reported device idempotently on its device stream', async () => {
    await bus.execute(new ReportHostCommand(hostReport('compute-1', [a100()]), context));
    const deviceUuid = deviceUuidOf('compute-1', a100().pciAddress);
    const target = { deviceUuid: deviceUuid.toUpperCase(), hostname: 'compute-1' };

    expect(await bus.execute(new DisableDeviceCommand({ ...target, reason: 'fan failure' }, context))).toMatchObject({
      appended: 1,
      eventTypes: ['inventory.DeviceDisabled'],
    });
    expect(await bus.execute(new DisableDeviceCommand(target, context))).toMatchObject({ appended: 0 });
    expect(await bus.execute(new EnableDeviceCommand(target, context))).toMatchObject({ appended: 1, eventTypes: ['inventory.DeviceEnabled'] });
    expect(await bus.execute(new EnableDeviceCommand(target, context))).toMatchObject({ appended: 0 });
    expect((await store.readStream(`device-${deviceUuid}`)).map((event) => event.data)).toEqual([
      { deviceUuid, reason: 'fan failure' },
      { deviceUuid },
    ]);
  });

  it('refuses maintenance of a device its host does not report (404) or a malformed target (400)', async () => {
    await bus.execute(new ReportHostCommand(hostReport('compute-1', [a100()]), context));
    const elsewhere = deviceUuidOf('compute-2', a100().pciAddress);
    await expect(bus.execute(new DisableDeviceCommand({ deviceUuid: elsewhere, hostname: 'compute-1' }, context))).rejects.toMatchObject({
      code: 'INVENTORY.DEVICE_NOT_FOUND',
      status: 404,
    });
    await expect(bus.execute(new EnableDeviceCommand({ deviceUuid: 'nope', hostname: 'compute-1' }, context))).rejects.toMatchObject({
      code: 'INVENTORY.COMMAND_INVALID',
      status: 400,
    });
    await bus.execute(new ReportHostCommand(hostReport('compute-1', []), context));
    await expect(
      bus.execute(new DisableDeviceCommand({ deviceUuid: deviceUuidOf('compute-1', a100().pciAddress), hostname: 'compute-1' }, context)),
    ).rejects.toMatchObject({ code: 'INVENTORY.DEVICE_NOT_FOUND' });
  });
});
