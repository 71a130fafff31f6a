import { ledgerCpuMsPerCall } from './per-call-cpu';
import type { SteadyWindow } from './steady-window';

const window = (fields: Partial<SteadyWindow>): SteadyWindow => ({
  seconds: 60,
  ledgerCpuSeconds: 0,
  benchCpuSeconds: 0,
  alsoCpuSeconds: {},
  reports: 0,
  changedReports: 0,
  heartbeats: 0,
  errors: 0,
  headBefore: 100,
  headAfter: 100,
  ...fields,
});

describe('ledgerCpuMsPerCall', () => {
  it('is the window’s ledger CPU over its calls', () => {
    expect(ledgerCpuMsPerCall(window({ reports: 10_000, ledgerCpuSeconds: 28 }), 'reports')).toBeCloseTo(2.8, 9);
  });

  it('keeps the cost of a call when a loaded machine starves the ledger, where differencing two windows went negative', () => {
    // The inputs that made (CPU/s with heartbeats − CPU/s of reports only) ÷ heartbeats/s come out at −1.6 ms:
    // the ledger given 40% of a core, half the calls through. Held to heartbeats alone, the window prices them at their 1.2 ms.
    const starved = window({ heartbeats: 5_000, ledgerCpuSeconds: 5_000 * 0.0012 });
    expect(ledgerCpuMsPerCall(starved, 'heartbeats')).toBeCloseTo(1.2, 9);
  });

  it('refuses a window that carried calls of the other kind', () => {
    expect(() => ledgerCpuMsPerCall(window({ heartbeats: 10_000, reports: 3, ledgerCpuSeconds: 12 }), 'heartbeats')).toThrow(
      "a window pricing heartbeats carried 3 reports as well: its CPU is not the heartbeats' alone",
    );
  });

  it('refuses a window with no calls of its kind rather than divide by zero', () => {
    expect(() => ledgerCpuMsPerCall(window({ errors: 40, ledgerCpuSeconds: 0.5 }), 'reports')).toThrow('a window pricing reports carried none (40 calls failed)');
  });
});
