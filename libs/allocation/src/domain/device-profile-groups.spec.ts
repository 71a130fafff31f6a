import { LedgerError } from '@ledger/kernel';
import { normalizeDeviceProfileGroups, parseDeviceProfileGroups } from './device-profile-groups';

/** The error a call throws (fails the test when it does not throw). */
function errorOf(run: () => unknown): LedgerError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LedgerError);
    return error as LedgerError;
  }
  throw new Error('expected an error');
}

describe('normalizeDeviceProfileGroups', () => {
  it('keeps groups in stored form: prefix spaces stripped, amounts as strings', () => {
    expect(
      normalizeDeviceProfileGroups([
        { 'resources: FPGA ': 2, 'trait: CUSTOM_FPGA_INTEL': 'required', 'accel:bitstream_id': 'b1' },
        { 'resources:CUSTOM_QAT': '1' },
      ]),
    ).toEqual([
      { 'resources:FPGA': '2', 'trait:CUSTOM_FPGA_INTEL': 'required', 'accel:bitstream_id': 'b1' },
      { 'resources:CUSTOM_QAT': '1' },
    ]);
  });

  it.each([
    ['no groups', undefined, 'groups', /needs groups/],
    ['an empty list', [], 'groups', /needs groups/],
    ['an object instead of a list', { 'resources:FPGA': '1' }, 'groups', /needs groups/],
    ['17 groups', Array(17).fill({ 'resources:FPGA': '1' }), 'groups', /at most 16 groups/],
    ['a group that is not an object', ['resources:FPGA'], 'groups[0]', /must be an object/],
    ['a group that is a list', [[]], 'groups[0]', /must be an object/],
    ['a group without resources', [{ 'trait:CUSTOM_X': 'required' }], 'groups[0]', /requests no resources/],
    ['an unknown prefix', [{ 'resources:FPGA': '1', 'foo:bar': 'x' }], 'groups[0].foo:bar', /must start with resources:, trait: or accel:/],
    ['a prefix without a name', [{ 'resources: ': '1' }], 'groups[0].resources: ', /names no resource class/],
    ['an unsupported resource class', [{ 'resources:ASIC': '1' }], 'groups[0].resources:ASIC', /^Unsupported resource class ASIC/],
    ['a lower-case custom class', [{ 'resources:CUSTOM_qat': '1' }], 'groups[0].resources:CUSTOM_qat', /Unsupported resource class/],
    ['a non-integer amount', [{ 'resources:FPGA': 'two' }], 'groups[0].resources:FPGA', /^Resources number two is invalid/],
    ['a zero amount', [{ 'resources:FPGA': '0' }], 'groups[0].resources:FPGA', /Resources number 0 is invalid/],
    ['a negative amount', [{ 'resources:FPGA': -1 }], 'groups[0].resources:FPGA', /Resources number -1 is invalid/],
    ['a fractional amount', [{ 'resources:FPGA': 1.5 }], 'groups[0].resources:FPGA', /Resources number 1.5 is invalid/],
    ['an amount above 64', [{ 'resources:FPGA': '65' }], 'groups[0].resources:FPGA', /from 1 to 64/],
    ['a trait value other than required/forbidden', [{ 'resources:FPGA': '1', 'trait:CUSTOM_X': 'preferred' }], 'groups[0].trait:CUSTOM_X', /^Unsupported trait value preferred/],
    ['a non-string trait value', [{ 'resources:FPGA': '1', 'trait:CUSTOM_X': true }], 'groups[0].trait:CUSTOM_X', /Unsupported trait value true/],
    ['a trait with bad characters', [{ 'resources:FPGA': '1', 'trait:CUSTOM_x-y': 'required' }], 'groups[0].trait:CUSTOM_x-y', /should hold only A-Z, 0-9 and _/],
    ['a non-string accel value', [{ 'resources:FPGA': '1', 'accel:function_id': 7 }], 'groups[0].accel:function_id', /must be a string/],
    ['an overlong accel value', [{ 'resources:FPGA': '1', 'accel:x': 'v'.repeat(256) }], 'groups[0].accel:x', /at most 255 characters/],
    ['an overlong key', [{ 'resources:FPGA': '1', [`accel:${'k'.repeat(250)}`]: 'v' }], `groups[0].accel:${'k'.repeat(250)}`, /at most 255 characters/],
    ['bitstream and function id together', [{ 'resources:FPGA': '1', 'accel:bitstream_id': 'b', 'accel:function_id': 'f' }], 'groups[0].accel:function_id', /not both/],
    ['one key twice once spaces are stripped', [{ 'resources:FPGA': '1', 'resources: FPGA': '1' }], 'groups[0].resources: FPGA', /appears twice/],
    ['more than 64 units in all', [{ 'resources:FPGA': '40' }, { 'resources:GPU': '30' }], 'groups', /at most 64 resources in all, not 70/],
  ])('refuses %s with DEVICE_PROFILE.INVALID naming the member', (_, groups, path, message) => {
    const error = errorOf(() => normalizeDeviceProfileGroups(groups));
    expect(error).toMatchObject({ code: 'DEVICE_PROFILE.INVALID', status: 400, facts: { path } });
    expect(error.message).toMatch(message);
  });

  it("says what real Cyborg says about a trait outside CUSTOM_ (sample device_profiles_post_badtrait_400.json), then where", () => {
    const error = errorOf(() => normalizeDeviceProfileGroups([{ 'resources:FPGA': '1' }, { 'resources:FPGA': '1', 'trait:FOO': 'required' }]));
    expect(error.message).toBe('Unsupported trait name format FOO, should start with CUSTOM_ (group 1, key "trait:FOO")');
    expect(error.facts).toEqual({ path: 'groups[1].trait:FOO' });
  });

  it('refuses OWNER_CYBORG and other standard traits, as Cyborg does', () => {
    expect(errorOf(() => normalizeDeviceProfileGroups([{ 'resources:FPGA': '1', 'trait:OWNER_CYBORG': 'required' }])).message).toMatch(
      /^Unsupported trait name format OWNER_CYBORG, should start with CUSTOM_/,
    );
  });
});

describe('parseDeviceProfileGroups', () => {
  it('reads each group as a request group: resources, required and forbidden traits, accel keys, by index', () => {
    expect(
      parseDeviceProfileGroups([
        { 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required', 'trait:CUSTOM_OLD': 'forbidden', 'accel:function_id': 'f1' },
        { 'resources:VGPU': '2', 'resources:CUSTOM_NIC': 1 },
      ]),
    ).toEqual([
      {
        index: 0,
        resources: [{ resourceClass: 'FPGA', amount: 1 }],
        requiredTraits: ['CUSTOM_FPGA_INTEL'],
        forbiddenTraits: ['CUSTOM_OLD'],
        accel: { 'accel:function_id': 'f1' },
      },
      {
        index: 1,
        resources: [
          { resourceClass: 'VGPU', amount: 2 },
          { resourceClass: 'CUSTOM_NIC', amount: 1 },
        ],
        requiredTraits: [],
        forbiddenTraits: [],
        accel: {},
      },
    ]);
  });

  it('throws the same validation errors', () => {
    expect(errorOf(() => parseDeviceProfileGroups([{ 'trait:FOO': 'required' }])).code).toBe('DEVICE_PROFILE.INVALID');
  });
});
