import { readFileSync } from 'node:fs';

/** Resident memory of another process in MiB, from VmRSS in /proc/<pid>/status (Linux only, as process-cpu.ts). */
export function processRssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}
