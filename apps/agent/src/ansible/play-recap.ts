/** The counters of one host's line in Ansible's PLAY RECAP. */
export interface PlayRecap {
  readonly ok: number;
  readonly changed: number;
  readonly unreachable: number;
  readonly failed: number;
  readonly skipped: number;
  readonly rescued: number;
  readonly ignored: number;
}

const COUNTERS = ['ok', 'changed', 'unreachable', 'failed', 'skipped', 'rescued', 'ignored'] as const;

/**
 * Reads the recap line of `host` from ansible-playbook's output:
 * `localhost : ok=2 changed=1 unreachable=0 failed=0 skipped=0 rescued=0 ignored=0`.
 * The last such line wins (one per play run); null when there is none
 * (the run died before its recap: a syntax error, a missing playbook).
 */
export function parsePlayRecap(output: string, host = 'localhost'): PlayRecap | null {
  const recapAt = output.lastIndexOf('PLAY RECAP');
  if (recapAt < 0) return null;
  const line = output
    .slice(recapAt)
    .split('\n')
    .find((candidate) => candidate.trimStart().startsWith(`${host} `) || candidate.trimStart().startsWith(`${host}:`));
  if (line === undefined) return null;
  const counters = Object.fromEntries(COUNTERS.map((name) => [name, 0])) as Record<(typeof COUNTERS)[number], number>;
  for (const [, name, value] of line.matchAll(/(\w+)=(\d+)/g)) {
    if ((COUNTERS as readonly string[]).includes(name)) counters[name as (typeof COUNTERS)[number]] = Number(value);
  }
  return counters;
}
