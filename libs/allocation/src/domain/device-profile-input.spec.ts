import { LedgerError } from '@ledger/kernel';
import { isDeviceProfileName, readDeviceProfileInput } from './device-profile-input';

const groups = [{ 'resources:FPGA': '1' }];

function refusal(body: unknown): LedgerError {
  try {
    readDeviceProfileInput(body);
  } catch (error) {
    expect(error).toBeInstanceOf(LedgerError);
    return error as LedgerError;
  }
  throw new Error('expected the body to be refused');
}

describe('readDeviceProfileInput', () => {
  it('reads name, groups, an optional description (null when absent) and an optional uuid (lower-cased)', () => {
    expect(readDeviceProfileInput({ name: 'gpu_dp-1', groups })).toEqual({ name: 'gpu_dp-1', description: null, groups });
    expect(readDeviceProfileInput({ name: 'a', groups, description: 'x', uuid: '0196B3C2-0000-7000-8000-0000000000A1' })).toEqual({
      name: 'a',
      description: 'x',
      groups,
      uuid: '0196b3c2-0000-7000-8000-0000000000a1',
    });
    expect(readDeviceProfileInput({ name: 'a', groups, description: null, uuid: null })).toEqual({ name: 'a', description: null, groups });
  });

  it.each([
    ['a list', [{ name: 'a', groups }], ''],
    ['null', null, ''],
    ['a string', 'fpga-dp', ''],
    ['an unknown field', { name: 'a', groups, project_id: 'p' }, 'project_id'],
  ])('refuses %s', (_, body, path) => {
    expect(refusal(body)).toMatchObject({ code: 'DEVICE_PROFILE.INVALID', facts: { path } });
  });

  it('names the profile rule', () => {
    expect(isDeviceProfileName('fpga-dp_2')).toBe(true);
    expect(isDeviceProfileName('fpga.dp')).toBe(false);
    expect(isDeviceProfileName('n'.repeat(255))).toBe(true);
    expect(isDeviceProfileName(undefined)).toBe(false);
  });
});
