/** CPU seconds used so far by the ledger process and by this benchmark process. */
export interface CpuReading {
  readonly ledger: number;
  readonly bench: number;
}

export function readCpu(ledgerCpuSeconds: () => number): CpuReading {
  const own = process.cpuUsage();
  return { ledger: ledgerCpuSeconds(), bench: (own.user + own.system) / 1e6 };
}

export const cpuBetween = (from: CpuReading, to: CpuReading): CpuReading => ({ ledger: to.ledger - from.ledger, bench: to.bench - from.bench });
