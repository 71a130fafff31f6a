import { LedgerError } from '@ledger/kernel';
import { type CreateDeviceProfile, deviceProfileDecider, type DeviceProfileCommand } from './device-profile.decider';
import type { DeviceProfileCreated, DeviceProfileDeleted, DeviceProfileEvent } from './device-profile.events';
import { deviceProfileStream } from './device-profile.streams';

const UUID = '0196b3c2-0000-7000-8000-0000000000a1';
const OTHER_UUID = '0196b3c2-0000-7000-8000-0000000000b2';
const AT = '2026-03-01T10:00:00.000Z';

const create = (overrides: Partial<CreateDeviceProfile> = {}): CreateDeviceProfile => ({
  type: 'CreateDeviceProfile',
  uuid: UUID,
  name: 'fpga-dp',
  description: null,
  groups: [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }],
  createdAt: AT,
  ...overrides,
});
const created = (uuid = UUID): DeviceProfileCreated => ({
  type: 'allocation.DeviceProfileCreated',
  data: { uuid, name: 'fpga-dp', description: null, groups: [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }], createdAt: AT },
});
const deleted = (uuid = UUID): DeviceProfileDeleted => ({ type: 'allocation.DeviceProfileDeleted', data: { uuid, name: 'fpga-dp' } });

/** Given past events, when a command: the events decided. */
const decide = (history: readonly DeviceProfileEvent[], command: DeviceProfileCommand) =>
  deviceProfileDecider.decide(command, history.reduce(deviceProfileDecider.evolve, deviceProfileDecider.initialState()));

function refusal(history: readonly DeviceProfileEvent[], command: DeviceProfileCommand): LedgerError {
  try {
    decide(history, command);
  } catch (error) {
    expect(error).toBeInstanceOf(LedgerError);
    return error as LedgerError;
  }
  throw new Error('expected the command to be refused');
}

describe('deviceProfileDecider', () => {
  it('lives on a stream named after the profile, so the name alone decides uniqueness', () => {
    expect(deviceProfileStream('fpga-dp')).toBe('profile-fpga-dp');
  });

  it('creates a profile under a free name, with its groups in stored form', () => {
    expect(decide([], create({ uuid: UUID.toUpperCase(), description: 'one FPGA', groups: [{ 'resources: FPGA': 1, 'trait:CUSTOM_FPGA_INTEL': 'required' }] }))).toEqual([
      { ...created(), data: { ...created().data, description: 'one FPGA' } },
    ]);
  });

  it("refuses a second create of a live name with Cyborg's message, whatever the uuid", () => {
    const error = refusal([created()], create({ uuid: OTHER_UUID }));
    expect(error).toMatchObject({ code: 'DEVICE_PROFILE.DUPLICATE', status: 409, message: 'A device_profile with name fpga-dp already exists.' });
  });

  it('deletes the live profile by name, or by name and uuid', () => {
    expect(decide([created()], { type: 'DeleteDeviceProfile', name: 'fpga-dp' })).toEqual([deleted()]);
    expect(decide([created()], { type: 'DeleteDeviceProfile', name: 'fpga-dp', uuid: UUID.toUpperCase() })).toEqual([deleted()]);
  });

  it("refuses to delete what is not there (404 in Cyborg's words), or a newer profile than the one asked for", () => {
    expect(refusal([], { type: 'DeleteDeviceProfile', name: 'fpga-dp' })).toMatchObject({
      code: 'DEVICE_PROFILE.NOT_FOUND',
      status: 404,
      message: 'Device Profile not found with name=fpga-dp',
    });
    expect(refusal([created(), deleted()], { type: 'DeleteDeviceProfile', name: 'fpga-dp', uuid: UUID })).toMatchObject({
      message: `Device Profile not found with uuid=${UUID}`,
    });
    expect(refusal([created(), deleted(), created(OTHER_UUID)], { type: 'DeleteDeviceProfile', name: 'fpga-dp', uuid: UUID })).toMatchObject({
      code: 'DEVICE_PROFILE.NOT_FOUND',
    });
  });

  it('lets a deleted name be used again by a new profile', () => {
    expect(decide([created(), deleted()], create({ uuid: OTHER_UUID }))).toEqual([created(OTHER_UUID)]);
    expect(decide([created(), deleted(), created(OTHER_UUID)], { type: 'DeleteDeviceProfile', name: 'fpga-dp' })).toEqual([deleted(OTHER_UUID)]);
  });

  it('ignores a delete of another life of the name when folding', () => {
    const state = [created(), deleted(), created(OTHER_UUID), deleted(UUID)].reduce(deviceProfileDecider.evolve, deviceProfileDecider.initialState());
    expect(state.live?.uuid).toBe(OTHER_UUID);
  });

  it.each([
    ['a missing name (Cyborg: 500)', { name: undefined }, 'name', 'DeviceProfile name needed.'],
    ['an empty name', { name: '' }, 'name', 'DeviceProfile name needed.'],
    ['a name with a space', { name: 'fpga dp' }, 'name', /must be of the form \^\[a-zA-Z0-9-_\]\+\$/],
    ['a name of 256 characters', { name: 'n'.repeat(256) }, 'name', /at most 255 characters/],
    ['a name that is not a string', { name: 7 }, 'name', /must be of the form/],
    ['a description of 256 characters', { description: 'd'.repeat(256) }, 'description', /at most 255/],
    ['a description that is not a string', { description: 3 }, 'description', /null or a string/],
    ['a uuid that is not one', { uuid: 'not-a-uuid' }, 'uuid', 'Device profile uuid must be a UUID'],
    ['no uuid at all', { uuid: undefined }, 'uuid', 'Device profile uuid must be a UUID'],
    ['missing groups', { groups: undefined }, 'groups', /needs groups/],
    ['a bad trait', { groups: [{ 'resources:FPGA': '1', 'trait:FOO': 'required' }] }, 'groups[0].trait:FOO', /^Unsupported trait name format FOO, should start with CUSTOM_/],
  ])('refuses %s with DEVICE_PROFILE.INVALID', (_, overrides, path, message) => {
    const error = refusal([], create(overrides as Partial<CreateDeviceProfile>));
    expect(error).toMatchObject({ code: 'DEVICE_PROFILE.INVALID', status: 400, facts: { path } });
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it('checks the input before the name: a bad profile under a live name is a 400, not a 409', () => {
    expect(refusal([created()], create({ groups: [] })).code).toBe('DEVICE_PROFILE.INVALID');
  });
});
