import { heartbeatCpuMsByDifference } from './heartbeat-cost';
import type { SteadyWindow } from './steady-window';

const window = (fields: Partial<SteadyWindow>): SteadyWindow => ({
  seconds: 60,
  ledgerCpuSeconds: 0,
  benchCpuSeconds: 0,
  reports: 0,
  changedReports: 0,
  heartbeats: 0,
  errors: 0,
  headBefore: 100,
  headAfter: 100,
  ...fields,
});

describe('heartbeatCpuMsByDifference', () => {
  it('goes negative when the machine starves the window with heartbeats: fewer reports got through, and their CPU is missing from it', () => {
    // 10,000 hosts, 60 s: all reports at 2.8 ms with the ledger given the CPU it wanted…
    const reportsOnly = window({ reports: 10_000, ledgerCpuSeconds: 28 });
    // …then a loaded machine gives it 40% of a core: half the reports and half the heartbeats get through, at 2.8 and 1.2 ms.
    const withHeartbeats = window({ reports: 5_000, heartbeats: 5_000, ledgerCpuSeconds: 5_000 * 0.0028 + 5_000 * 0.0012 });
    expect(heartbeatCpuMsByDifference(withHeartbeats, reportsOnly)).toBeCloseTo(-1.6, 6);
  });
});
