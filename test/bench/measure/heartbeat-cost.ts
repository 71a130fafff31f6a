import type { SteadyWindow } from './steady-window';

/**
 * Ledger CPU per heartbeat as the agents bench derives it today: the CPU
 * rate of a window with heartbeats less the CPU rate of a window without,
 * over the heartbeat rate. It assumes both windows carried the same reports
 * and that the ledger got the CPU it wanted in both.
 */
export const heartbeatCpuMsByDifference = (withHeartbeats: SteadyWindow, reportsOnly: SteadyWindow): number =>
  ((withHeartbeats.ledgerCpuSeconds / withHeartbeats.seconds - reportsOnly.ledgerCpuSeconds / reportsOnly.seconds) / (withHeartbeats.heartbeats / withHeartbeats.seconds)) * 1000;
