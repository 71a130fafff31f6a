import 'reflect-metadata';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { type CommandContext, EVENT_STORE, STREAM_LOCKS, StreamLocks } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore } from '@ledger/processing/testing';
import type { HeartbeatDevice } from '../../domain/host-heartbeat';
import { deviceUuidOf } from '../../domain/identity';
import { a100, hostReport, x710 } from '../../domain/testing/host-report.fixtures';
import type { HostLivenessCommands } from '../agent-liveness/host-liveness-commands';
import { HOST_LIVENESS_COMMANDS } from '../inventory.tokens';
import { RecordAgentSeenCommand } from '../agent-liveness/record-agent-seen.command';
import { InventoryModule } from '../inventory.module';
import { ReportHostCommand } from '../report-host/report-host.command';
import { RecordHeartbeatCommand } from './record-heartbeat.command';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: '0196b3c2-0000-7000-8000-000000000002' };
const HOST = 'compute-1';
const GPU = '0000:3b:00.0';
const NIC = '0000:af:00.0';
const gpuUuid = deviceUuidOf(HOST, GPU);
const ok = (pciAddress: string): HeartbeatDevice => ({ pciAddress, health: 'ok', healthReason: null });

describe('RecordHeartbeatCommand (in a small Nest app)', () => {
  let app: INestApplicationContext;
  let bus: CommandBus;
  let store: InMemoryEventStore;
  const heartbeat = (devices: HeartbeatDevice[], hostname = HOST) => bus.execute(new RecordHeartbeatCommand({ hostname, devices }, context));

  beforeEach(async () => {
    store = new InMemoryEventStore();
    @Global()
    @Module({ providers: [{ provide: EVENT_STORE, useValue: store }, { provide: STREAM_LOCKS, useValue: new StreamLocks() }], exports: [EVENT_STORE, STREAM_LOCKS] })
    class StoreModule {}
    @Module({ imports: [CqrsModule.forRoot(), StoreModule, InventoryModule] })
    class FixtureModule {}
    app = await NestFactory.createApplicationContext(FixtureModule, { logger: false });
    bus = app.get(CommandBus);
    await bus.execute(new ReportHostCommand(hostReport(HOST, [a100(GPU), x710(NIC)]), context));
  });

  afterEach(() => app.close());

  it('refuses a host that never reported and records nothing', async () => {
    const head = await store.headPosition();
    await expect(heartbeat([ok(GPU)], 'compute-2')).rejects.toMatchObject({ code: 'INVENTORY.HOST_NOT_FOUND', status: 404 });
    expect(await store.headPosition()).toBe(head);
  });

  it('resolves reported devices by PCI address, any case, and ignores the others', async () => {
    const result = await heartbeat([ok(GPU.toUpperCase()), ok('0000:d8:00.0')]);
    expect(result).toEqual({ appended: 0, position: undefined, devices: [{ pciAddress: GPU, deviceUuid: gpuUuid }], unknownDevices: ['0000:d8:00.0'] });
  });

  it('reads no device stream for devices as healthy as last time', async () => {
    await heartbeat([ok(GPU), ok(NIC)]);
    const readStream = jest.spyOn(store, 'readStream');
    const result = await heartbeat([ok(GPU), ok(NIC)]);
    expect(result.appended).toBe(0);
    expect(readStream.mock.calls.map(([stream]) => stream)).toEqual([`host-${HOST}`]);
  });

  it('appends one DeviceHealthChanged per change of level, then nothing while it stays', async () => {
    const degraded = { pciAddress: GPU, health: 'degraded', healthReason: 'Xid 79' } as const;
    const first = await heartbeat([degraded, ok(NIC)]);
    expect(first).toMatchObject({ appended: 1, position: await store.headPosition() });
    expect(await heartbeat([{ ...degraded, healthReason: 'Xid 79 again' }, ok(NIC)])).toMatchObject({ appended: 0 });
    expect(await heartbeat([ok(GPU), ok(NIC)])).toMatchObject({ appended: 1 });
    const events = await store.readStream(`device-${gpuUuid}`);
    expect(events.map((event) => [event.type, (event.data as { health: string }).health])).toEqual([
      ['inventory.DeviceHealthChanged', 'degraded'],
      ['inventory.DeviceHealthChanged', 'ok'],
    ]);
  });

  it('judges a cause by the health policy, recovering after its healthy checks, and skips no unhealthy report', async () => {
    const ecc = { pciAddress: GPU, health: 'degraded', healthReason: 'ECC', cause: { kind: 'ecc', detail: 'uncorrected', count: 2 } } as const;
    expect(await heartbeat([ecc, ok(NIC)])).toMatchObject({ appended: 1 });
    const types = async () => (await store.readStream(`device-${gpuUuid}`)).map((event) => event.type);
    for (let check = 1; check < 10; check++) await heartbeat([ok(GPU), ok(NIC)]);
    expect((await types()).filter((type) => type === 'inventory.DeviceHealthCheckPassed')).toHaveLength(9);
    expect(await heartbeat([ok(GPU), ok(NIC)])).toMatchObject({ appended: 1 });
    const events = await store.readStream(`device-${gpuUuid}`);
    expect(events.at(0)?.data).toMatchObject({ health: 'degraded', cause: { kind: 'ecc', detail: 'uncorrected', count: 2 }, effect: 'reserve', policyVersion: '1' });
    expect(events.at(-1)?.data).toMatchObject({ health: 'ok', recoveredBy: { healthyChecks: 10 } });
  });

  it('records the agent back once after it was marked lost, by a heartbeat or a report', async () => {
    const liveness = app.get<symbol, HostLivenessCommands>(HOST_LIVENESS_COMMANDS);
    // Heartbeats are stamped with the handler's clock, so the monitor's readings are taken from it too.
    const markLost = async () => {
      const lastSeenAt = new Date().toISOString();
      const result = await liveness.run({ type: 'MarkAgentLost', hostname: HOST, lastSeenAt, detectedAt: new Date().toISOString() }, context);
      expect(result.appended).toBe(1);
    };
    await markLost();
    expect(await heartbeat([ok(GPU)])).toMatchObject({ appended: 1 });
    expect(await heartbeat([ok(GPU)])).toMatchObject({ appended: 0 });
    await markLost();
    expect(await bus.execute(new RecordAgentSeenCommand(HOST, context))).toMatchObject({ appended: 1, eventTypes: ['inventory.AgentBack'] });
    const types = (await store.readStream(`host-${HOST}`)).map((event) => event.type).filter((type) => type.startsWith('inventory.Agent'));
    expect(types).toEqual(['inventory.AgentLost', 'inventory.AgentBack', 'inventory.AgentLost', 'inventory.AgentBack']);
  });

  it('refuses a contradictory heartbeat before recording anything', async () => {
    const liveness = app.get<symbol, HostLivenessCommands>(HOST_LIVENESS_COMMANDS);
    await liveness.run({ type: 'MarkAgentLost', hostname: HOST, lastSeenAt: '2026-03-01T10:00:00.000Z', detectedAt: '2026-03-01T10:00:45.000Z' }, context);
    const head = await store.headPosition();
    await expect(heartbeat([ok(GPU), { ...ok(GPU), health: 'failed' }])).rejects.toMatchObject({ code: 'INVENTORY.HEARTBEAT_INVALID', status: 400 });
    expect(await store.headPosition()).toBe(head);
  });
});
