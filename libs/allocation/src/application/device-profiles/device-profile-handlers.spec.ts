import 'reflect-metadata';
import { Global, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { type CommandContext, EVENT_STORE, STREAM_LOCKS, StreamLocks } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { InMemoryEventStore, testEvent } from '@ledger/processing/testing';
import { CreateDeviceProfileCommand } from './create-device-profile.command';
import { DeleteDeviceProfilesCommand } from './delete-device-profiles.command';
import { DEVICE_PROFILE_PROVIDERS } from './device-profile.providers';

const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: '0196b3c2-0000-7000-8000-000000000001' };
const AT = '2026-03-01T10:00:00.000Z';
const profile = (name: string, extra: Record<string, unknown> = {}) => ({ name, groups: [{ 'resources:FPGA': '1' }], ...extra });

describe('device-profile command handlers (in a small Nest app)', () => {
  let app: INestApplicationContext;
  let bus: CommandBus;
  let store: InMemoryEventStore;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    @Global()
    @Module({ providers: [{ provide: EVENT_STORE, useValue: store }, { provide: STREAM_LOCKS, useValue: new StreamLocks() }], exports: [EVENT_STORE, STREAM_LOCKS] })
    class StoreModule {}
    @Module({ imports: [CqrsModule.forRoot(), StoreModule], providers: DEVICE_PROFILE_PROVIDERS })
    class FixtureModule {}
    app = await NestFactory.createApplicationContext(FixtureModule, { logger: false });
    bus = app.get(CommandBus);
  });

  afterEach(() => app.close());

  it('records a create on the stream of its name, choosing a uuid when none is given', async () => {
    const result = await bus.execute(new CreateDeviceProfileCommand(profile('fpga-dp'), context, AT));
    expect(result).toEqual({
      profile: { uuid: expect.any(String), name: 'fpga-dp', description: null, groups: [{ 'resources:FPGA': '1' }], createdAt: AT },
      position: 1,
    });
    const [event] = await store.readStream('profile-fpga-dp');
    expect(event).toMatchObject({ type: 'allocation.DeviceProfileCreated', data: result.profile, metadata: { schemaVersion: 1 } });
  });

  it('lets exactly one of two concurrent creates of one name win', async () => {
    const outcomes = await Promise.allSettled([
      bus.execute(new CreateDeviceProfileCommand(profile('dup'), context)),
      bus.execute(new CreateDeviceProfileCommand(profile('dup'), context)),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: { code: 'DEVICE_PROFILE.DUPLICATE' } });
    expect(await store.headPosition()).toBe(1);
  });

  it('refuses a bad profile before reading or writing anything', async () => {
    await expect(bus.execute(new CreateDeviceProfileCommand({ groups: [] }, context))).rejects.toMatchObject({ code: 'DEVICE_PROFILE.INVALID' });
    await expect(bus.execute(new CreateDeviceProfileCommand(profile('a b'), context))).rejects.toMatchObject({
      code: 'DEVICE_PROFILE.INVALID',
      facts: { path: 'name' },
    });
    expect(await store.headPosition()).toBe(0);
  });

  it('deletes several profiles, or none of them when one is unknown', async () => {
    const a = await bus.execute(new CreateDeviceProfileCommand(profile('a'), context));
    await bus.execute(new CreateDeviceProfileCommand(profile('b'), context));
    await expect(
      bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ name: 'a' }, { name: 'nope' }, { name: 'b' }] }, context)),
    ).rejects.toMatchObject({ code: 'DEVICE_PROFILE.NOT_FOUND', message: 'Device Profile not found with name=nope' });
    await expect(bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ name: 'a', uuid: '0196b3c2-0000-7000-8000-00000000dead' }] }, context))).rejects.toMatchObject({
      code: 'DEVICE_PROFILE.NOT_FOUND',
    });
    expect(await store.headPosition()).toBe(2);

    const result = await bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ name: 'a', uuid: a.profile.uuid }, { name: 'b' }, { name: 'b' }] }, context));
    expect(result.deleted.map((profile) => profile.name)).toEqual(['a', 'b']);
    expect(result.position).toBe(4);
    await expect(bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ name: 'a' }] }, context))).rejects.toMatchObject({ code: 'DEVICE_PROFILE.NOT_FOUND' });
  });

  it('answers a target list that is empty or names what cannot be a profile', async () => {
    await expect(bus.execute(new DeleteDeviceProfilesCommand({ profiles: [] }, context))).rejects.toMatchObject({ code: 'DEVICE_PROFILE.INVALID' });
    await expect(bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ name: '../x' }] }, context))).rejects.toMatchObject({
      code: 'DEVICE_PROFILE.NOT_FOUND',
    });
  });

  it('refuses a create whose uuid a live profile has, and frees the uuid with its profile', async () => {
    const uuid = '0196b3c2-0000-7000-8000-00000000beef';
    await bus.execute(new CreateDeviceProfileCommand(profile('first', { uuid }), context));
    await expect(bus.execute(new CreateDeviceProfileCommand(profile('second', { uuid: uuid.toUpperCase() }), context))).rejects.toMatchObject({
      code: 'DEVICE_PROFILE.DUPLICATE',
      facts: { uuid },
    });
    expect(await store.headPosition()).toBe(1);
    await bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ name: 'first' }] }, context));
    const second = await bus.execute(new CreateDeviceProfileCommand(profile('second', { uuid }), context));
    expect(second.profile).toMatchObject({ name: 'second', uuid });
  });

  it('deletes by uuid alone, found from the log', async () => {
    const created = await bus.execute(new CreateDeviceProfileCommand(profile('by-uuid'), context));
    await expect(bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ uuid: '0196b3c2-0000-7000-8000-00000000dead' }] }, context))).rejects.toMatchObject({
      code: 'DEVICE_PROFILE.NOT_FOUND',
      message: 'Device Profile not found with uuid=0196b3c2-0000-7000-8000-00000000dead',
    });
    const result = await bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ uuid: created.profile.uuid.toUpperCase() }] }, context));
    expect(result.deleted).toEqual([{ uuid: created.profile.uuid, name: 'by-uuid' }]);
    await expect(bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ uuid: created.profile.uuid }] }, context))).rejects.toMatchObject({
      code: 'DEVICE_PROFILE.NOT_FOUND',
    });
  });

  it('refuses to delete a profile that live requests use, counted from the log, and deletes nothing', async () => {
    const used = await bus.execute(new CreateDeviceProfileCommand(profile('used'), context));
    await bus.execute(new CreateDeviceProfileCommand(profile('free'), context));
    const request = (uuid: string) => ({ uuid, projectId: 'p1', deviceProfileUuid: used.profile.uuid, deviceProfileName: 'used', createdAt: AT });
    for (const uuid of ['0196b3c2-0000-7000-8000-0000000000a1', '0196b3c2-0000-7000-8000-0000000000a2']) {
      await store.append(`arq-${uuid}`, [testEvent('allocation.ArqCreated', request(uuid))], { expected: 'no_stream' });
    }
    await expect(bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ name: 'free' }, { name: 'used' }] }, context))).rejects.toMatchObject({
      code: 'DEVICE_PROFILE.IN_USE',
      facts: { name: 'used', requests: 2 },
    });
    expect(await store.headPosition()).toBe(4);
    for (const uuid of ['0196b3c2-0000-7000-8000-0000000000a1', '0196b3c2-0000-7000-8000-0000000000a2']) {
      await store.append(`arq-${uuid}`, [testEvent('allocation.ArqDeleted', { uuid, projectId: 'p1', deletedAt: AT })], { expected: 'any' });
    }
    const result = await bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ name: 'free' }, { name: 'used' }] }, context));
    expect(result.deleted.map((deleted) => deleted.name)).toEqual(['free', 'used']);
  });

  it('reuses a name after its profile was deleted', async () => {
    const first = await bus.execute(new CreateDeviceProfileCommand(profile('again'), context));
    await bus.execute(new DeleteDeviceProfilesCommand({ profiles: [{ name: 'again' }] }, context));
    const second = await bus.execute(new CreateDeviceProfileCommand(profile('again'), context));
    expect(second.profile.uuid).not.toBe(first.profile.uuid);
    expect((await store.readStream('profile-again')).map((event) => event.type)).toEqual([
      'allocation.DeviceProfileCreated',
      'allocation.DeviceProfileDeleted',
      'allocation.DeviceProfileCreated',
    ]);
  });
});
