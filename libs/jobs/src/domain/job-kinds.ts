/** What a job asks of a host's agent (docs/agent-protocol.md, "Jobs"). */
export const JOB_KINDS = [
  'program',
  'configure-vfs',
  'create-mdev',
  'remove-mdev',
  'attach',
  'detach',
  'install-driver',
  'uninstall-driver',
  'update-driver',
  'discover',
  'probe',
  'clean',
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Jobs that run a driver's Ansible playbook; their outcome is also a fact on the host stream. */
export const DRIVER_JOB_KINDS = ['install-driver', 'uninstall-driver', 'update-driver'] as const;
export type DriverJobKind = (typeof DRIVER_JOB_KINDS)[number];

export const isJobKind = (value: unknown): value is JobKind => (JOB_KINDS as readonly unknown[]).includes(value);
export const isDriverJobKind = (kind: string): kind is DriverJobKind => (DRIVER_JOB_KINDS as readonly string[]).includes(kind);

export const MIN_TIMEOUT_SECONDS = 1;
export const MAX_TIMEOUT_SECONDS = 86_400;

/**
 * How long the ledger waits for a result when the request names no timeout:
 * loading a bitstream takes minutes, a playbook may download packages, a
 * probe reads a few bytes (a function that does not answer in seconds is
 * not reachable), the rest are sysfs writes.
 */
export function defaultTimeoutSeconds(kind: JobKind): number {
  if (kind === 'program') return 600;
  if (isDriverJobKind(kind)) return 1800;
  if (kind === 'probe') return 15;
  return 120;
}
