import type { SteadyWindow } from './steady-window';

export type CallKind = 'reports' | 'heartbeats';

/**
 * Ledger CPU per call, in ms, over a window that carried calls of one kind
 * only: the ledger's CPU in the window over the calls answered in it. Both
 * are counts that only grow, so the figure cannot be negative; a machine
 * that starves the ledger slows the calls and their CPU alike. What the
 * ledger does on its own (timers, the liveness monitor) is charged to the
 * calls, so it is an upper bound. A window with calls of the other kind in
 * it, or with none of this kind, is refused: its CPU is not theirs alone.
 */
export function ledgerCpuMsPerCall(window: SteadyWindow, kind: CallKind): number {
  const other: CallKind = kind === 'reports' ? 'heartbeats' : 'reports';
  if (window[other] > 0) throw new Error(`a window pricing ${kind} carried ${window[other]} ${other} as well: its CPU is not the ${kind}' alone`);
  if (window[kind] === 0) throw new Error(`a window pricing ${kind} carried none (${window.errors} calls failed)`);
  return (window.ledgerCpuSeconds * 1000) / window[kind];
}
