import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

/**
 * CPU seconds used so far by each of `pids` still running (one that has
 * ended counts nothing): over a window, exact for processes alive at both
 * ends, such as PostgreSQL's backends serving pooled connections.
 */
export function processesCpuSeconds(pids: readonly number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      used.set(pid, processCpuSeconds(pid));
    } catch {
      // Ended since it was listed.
    }
  }
  return used;
}

/** CPU seconds each process used between two readings of processesCpuSeconds, summed; one not read at the start counts from zero. */
export function cpuSecondsBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}
