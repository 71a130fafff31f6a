import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Resident memory of another process in MiB, from VmRSS in /proc/<pid>/status (Linux only, as process-cpu.ts). */
export function processRssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/**
 * This process's heap in use after a full collection, in bytes: what the
 * objects it holds take, without the garbage a reading at a random moment
 * would count. `gc` is exposed on the fly (the bench runs without
 * --expose-gc) through a fresh context, where V8 installs it once the flag is set.
 */
export function heapUsedAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
