import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/**
 * CPU seconds (user + system, every thread) another process has used so
 * far, from /proc/<pid>/stat: Node cannot ask a child for its cpuUsage.
 * Linux only; elsewhere the benchmark that needs it fails with this error.
 */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticks / ticksPerSecond;
}

/** Every process whose command name (`/proc/<pid>/comm`) is `name`, e.g. PostgreSQL's server and backends; Linux only. */
export function processesNamed(name: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
      } catch {
        // Gone since the listing.
        return false;
      }
    })
    .map(Number);
}

/**
 * CPU seconds used so far by every process named `name` at this moment.
 * Over a window it is exact only for processes alive at both ends: one that
 * ends in between takes its CPU with it, one that starts brings all of its
 * own (PostgreSQL's backends live as long as the replicas' pooled
 * connections, so a window of steady load keeps the same ones).
 */
export function namedProcessesCpuSeconds(name: string): number {
  return processesNamed(name).reduce((sum, pid) => {
    try {
      return sum + processCpuSeconds(pid);
    } catch {
      return sum;
    }
  }, 0);
}
