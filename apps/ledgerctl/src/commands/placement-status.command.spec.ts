import { type FleetAnswer, formatFleetSync, formatHostSync, type HostAnswer } from './placement-status.command';

const counts = { 'in-sync': 3, 'blocked-by-allocations': 1, 'waiting-for-compute-node': 0, 'placement-unavailable': 1, failed: 0 };

describe('ledgerctl placement status', () => {
  it('prints the fleet: the reconciler, hosts per state, one row per host not in sync', () => {
    const fleet: FleetAnswer = {
      reconciler: { enabled: true, running: true, holdsLease: true, lastCompareAt: '2026-03-01T10:00:05.000Z', placementUnavailableSince: '2026-03-01T09:59:00.000Z' },
      counts,
      items: [
        { hostname: 'compute-2', state: 'blocked-by-allocations', since: '2026-03-01T09:00:00.000Z', position: 40, detail: 'compute-2_0000:5e:00.0: reserved and kept until their allocations go' },
        { hostname: 'compute-3', state: 'placement-unavailable', since: '2026-03-01T09:59:00.000Z', position: 0 },
      ],
      nextCursor: null,
    };
    expect(formatFleetSync(fleet).split('\n')).toEqual([
      'reconciler: on, compares here, last compare 2026-03-01T10:00:05.000Z, Placement unavailable since 2026-03-01T09:59:00.000Z',
      'in-sync 3  blocked-by-allocations 1  waiting-for-compute-node 0  placement-unavailable 1  failed 0',
      'HOST       STATE                   SINCE                     DETAIL',
      'compute-2  blocked-by-allocations  2026-03-01T09:00:00.000Z  compute-2_0000:5e:00.0: reserved and kept until their allocations go',
      'compute-3  placement-unavailable   2026-03-01T09:59:00.000Z  -',
      '',
    ]);
  });

  it('says when the reconciler is off, or runs in another process, and when every host is in sync', () => {
    const none = { 'in-sync': 0, 'blocked-by-allocations': 0, 'waiting-for-compute-node': 0, 'placement-unavailable': 0, failed: 0 };
    expect(formatFleetSync({ reconciler: { enabled: false }, counts: none, items: [], nextCursor: null })).toContain('reconciler: off (neither LEDGER_PLACEMENT_URL nor LEDGER_KEYSTONE_URL is set)');
    const elsewhere = formatFleetSync({ reconciler: { enabled: true }, counts: none, items: [], nextCursor: null });
    expect(elsewhere).toContain('does not run the processors role');
    expect(elsewhere).toContain('no host compared yet');
    expect(formatFleetSync({ reconciler: { enabled: true }, counts: { ...none, 'in-sync': 2 }, items: [], nextCursor: null })).toContain('every host is in sync');
  });

  it('prints one host: its sync, the last repair, what blocks it, and the providers it should have', () => {
    const host: HostAnswer = {
      hostname: 'compute-1',
      position: 42,
      providers: [
        {
          uuid: 'u', name: 'compute-1_0000:5e:00.0', deviceUuid: 'd', deployableUuid: 'p', resourceClass: 'FPGA', total: 2, reserved: 2, maxUnit: 2,
          traits: ['CUSTOM_FPGA_INTEL', 'OWNER_CYBORG'], reservedBecause: ['disabled'],
        },
      ],
      sync: {
        hostname: 'compute-1', state: 'blocked-by-allocations', since: '2026-03-01T10:00:00.000Z', position: 42, detail: 'old: reserved and kept until their allocations go',
        blocked: [{ uuid: 'b', name: 'compute-1_0000:3b:00.0', usages: { PGPU: 1 } }],
        lastRepair: { at: '2026-03-01T09:00:00.000Z', what: ['provider compute-1_0000:5e:00.0 is missing'] },
      },
    };
    expect(formatHostSync(host).split('\n')).toEqual([
      'compute-1: blocked-by-allocations since 2026-03-01T10:00:00.000Z (desired state of position 42, in Placement up to 42)',
      '  old: reserved and kept until their allocations go',
      '  blocked: compute-1_0000:3b:00.0 holds PGPU 1',
      '  drift repaired at 2026-03-01T09:00:00.000Z: provider compute-1_0000:5e:00.0 is missing',
      'PROVIDER                CLASS  TOTAL  RESERVED  BECAUSE   TRAITS',
      'compute-1_0000:5e:00.0  FPGA   2      2         disabled  CUSTOM_FPGA_INTEL,OWNER_CYBORG',
      '',
    ]);
    expect(formatHostSync({ hostname: 'compute-9', position: 3, providers: [], sync: null })).toBe(
      'compute-9: not compared yet (is LEDGER_PLACEMENT_URL set? see `ledgerctl placement status`)\nno providers wanted\n',
    );
  });
});
