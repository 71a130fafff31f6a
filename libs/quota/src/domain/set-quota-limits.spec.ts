import { quotaDecider } from './quota.decider';
import type { SetQuotaLimits } from './quota.commands';
import { deciderSpec } from '@ledger/eventstore/testing';
import { limitSet, reserved } from './testing/quota-events';

const spec = deciderSpec(quotaDecider);
const setLimits = (limits: Record<string, unknown>, project = 'p1'): SetQuotaLimits =>
  ({ type: 'SetQuotaLimits', project, limits }) as SetQuotaLimits;

describe('quotaDecider: SetQuotaLimits', () => {
  it('records one LimitSet per resource, for classes and capacity dimensions', () => {
    spec
      .given([])
      .when(setLimits({ FPGA: 4, 'capacity:memoryGiB': 160, CUSTOM_NPU_V2: 0 }))
      .then([limitSet('FPGA', 4), limitSet('capacity:memoryGiB', 160), limitSet('CUSTOM_NPU_V2', 0)]);
  });

  it('records only limits that change, so repeating a command appends nothing', () => {
    const given = spec.given([limitSet('FPGA', 4), limitSet('PGPU', 2)]);
    given.when(setLimits({ FPGA: 4, PGPU: 2 })).then([]);
    given.when(setLimits({ FPGA: 4, PGPU: 3, VGPU: null })).then([limitSet('PGPU', 3)]);
  });

  it('removes a limit with null, and removing an absent limit appends nothing', () => {
    const given = spec.given([limitSet('FPGA', 4)]);
    given.when(setLimits({ FPGA: null })).then([limitSet('FPGA', null)]);
    expect(spec.given([limitSet('FPGA', 4), limitSet('FPGA', null)]).state.limits).toEqual({});
    spec.given([]).when(setLimits({ GPU: null })).then([]);
  });

  it('accepts a limit below what is in use (reservations stay)', () => {
    const given = spec.given([reserved('arq-1', { FPGA: 3 })]);
    given.when(setLimits({ FPGA: 1 })).then([limitSet('FPGA', 1)]);
    const lowered = spec.given([reserved('arq-1', { FPGA: 3 }), limitSet('FPGA', 1)]).state;
    expect(lowered).toMatchObject({ limits: { FPGA: 1 }, usage: { FPGA: 3 } });
    expect(lowered.reservations.get('arq-1')).toEqual({ FPGA: 3 });
  });

  it.each([
    ['an unknown class', { fpga: 1 }, 'limits.fpga'],
    ['a lower-case custom class', { CUSTOM_fpga: 1 }, 'limits.CUSTOM_fpga'],
    ['an empty custom class', { CUSTOM_: 1 }, 'limits.CUSTOM_'],
    ['a capacity without a name', { 'capacity:': 1 }, 'limits.capacity:'],
    ['a capacity name starting with a digit', { 'capacity:1GiB': 1 }, 'limits.capacity:1GiB'],
    ['a capacity name of 65 characters', { [`capacity:${'m'.repeat(65)}`]: 1 }, `limits.capacity:${'m'.repeat(65)}`],
    ['a negative limit', { FPGA: -1 }, 'limits.FPGA'],
    ['a fractional limit', { FPGA: 1.5 }, 'limits.FPGA'],
    ['a string limit', { FPGA: '2' }, 'limits.FPGA'],
    ['an unsafe integer', { FPGA: 2 ** 53 }, 'limits.FPGA'],
    ['limits that are not an object', ['FPGA'] as unknown as Record<string, unknown>, 'limits'],
  ])('refuses %s with QUOTA.INVALID naming the member', (_, limits, path) => {
    spec.given([]).when(setLimits(limits)).thenThrows('QUOTA.INVALID', { path });
  });

  it('refuses a malformed project id and more than 64 resources at once', () => {
    spec.given([]).when(setLimits({ FPGA: 1 }, 'p 1')).thenThrows('QUOTA.INVALID', { path: 'project' });
    spec.given([]).when(setLimits({ FPGA: 1 }, 'p'.repeat(65))).thenThrows('QUOTA.INVALID', { path: 'project' });
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`CUSTOM_R${i}`, 1]));
    spec.given([]).when(setLimits(many)).thenThrows('QUOTA.INVALID', { path: 'limits' });
  });

  it('accepts the longest names Placement and devices allow', () => {
    const longest = { [`CUSTOM_${'X'.repeat(248)}`]: 1, [`capacity:${'m'.repeat(64)}`]: 2 };
    spec.given([]).when(setLimits(longest)).then([limitSet(`CUSTOM_${'X'.repeat(248)}`, 1), limitSet(`capacity:${'m'.repeat(64)}`, 2)]);
    spec.given([]).when(setLimits({ [`CUSTOM_${'X'.repeat(249)}`]: 1 })).thenThrows('QUOTA.INVALID');
  });
});
