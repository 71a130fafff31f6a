import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AnsibleRunner } from '../../ansible/ansible-runner';
import { DRIVER_NAMES } from '../../config/driver-names';
import type { AcceleratorDriver, JobEvidence, JobParams } from '../../drivers/accelerator-driver';
import { JOB_FAILURE_CODES, JobFailure } from './job-failure';

/** Job kinds that install or remove a driver's host software, and the playbook each runs (an update re-runs install with the new version). */
export const DRIVER_SOFTWARE_PLAYBOOKS = {
  'install-driver': 'install',
  'update-driver': 'install',
  'uninstall-driver': 'uninstall',
} as const;

export type DriverSoftwareJobKind = keyof typeof DRIVER_SOFTWARE_PLAYBOOKS;

export const isDriverSoftwareJobKind = (kind: string): kind is DriverSoftwareJobKind => Object.hasOwn(DRIVER_SOFTWARE_PLAYBOOKS, kind);

const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+~-]{0,63}$/;

export interface DriverSoftwareJobContext {
  readonly drivers: readonly AcceleratorDriver[];
  /** Where the playbooks of drivers that are not enabled (yet) are found: `<dir>/<driver>/<install|uninstall>.yml`. */
  readonly playbookDir: string;
  readonly sandboxRoot: string;
  readonly ansible: Pick<AnsibleRunner, 'run'>;
  readonly timeoutMs: number;
}

/**
 * Runs the driver's install or uninstall playbook with `sandbox_root` and,
 * when the job names one, `driver_version` (else the playbook's default).
 * Evidence is the PLAY RECAP; a failed or timed-out run fails the job with
 * the recap and the tail of the output.
 */
export async function runDriverSoftwareJob(kind: DriverSoftwareJobKind, params: JobParams, context: DriverSoftwareJobContext): Promise<JobEvidence> {
  const driver = params.driver;
  if (typeof driver !== 'string' || !(DRIVER_NAMES as readonly string[]).includes(driver)) {
    throw new JobFailure(JOB_FAILURE_CODES.paramsInvalid, `params.driver must be one of ${DRIVER_NAMES.join(', ')}`);
  }
  const version = params.version;
  if (version !== undefined && version !== null && (typeof version !== 'string' || !VERSION.test(version))) {
    throw new JobFailure(JOB_FAILURE_CODES.paramsInvalid, 'params.version must be a version string (letters, digits, . _ + ~ -)');
  }
  const operation = DRIVER_SOFTWARE_PLAYBOOKS[kind];
  const playbook = playbookOf(driver, operation, context);
  const extraVars: Record<string, string> = { sandbox_root: context.sandboxRoot };
  if (typeof version === 'string') extraVars.driver_version = version;
  const outcome = await context.ansible.run({ playbook, extraVars, timeoutMs: context.timeoutMs });
  const facts = { driver, operation, version: version ?? null, playbook, recap: outcome.recap };
  if (outcome.exitCode === 0) return facts;
  const failed = { ...facts, exitCode: outcome.exitCode, outputTail: outcome.outputTail };
  if (outcome.timedOut) throw new JobFailure(JOB_FAILURE_CODES.timedOut, `the ${operation} playbook of ${driver} did not finish within ${context.timeoutMs / 1000} s and was stopped`, failed);
  const why = outcome.spawnError ?? `ansible-playbook exited with ${outcome.exitCode}`;
  throw new JobFailure(JOB_FAILURE_CODES.playbookFailed, `the ${operation} playbook of ${driver} failed: ${why}`, failed);
}

function playbookOf(driver: string, operation: 'install' | 'uninstall', context: DriverSoftwareJobContext): string {
  const enabled = context.drivers.find((candidate) => candidate.name === driver);
  const playbook = enabled?.playbooks[operation] ?? join(context.playbookDir, driver, `${operation}.yml`);
  if (!existsSync(playbook)) throw new JobFailure(JOB_FAILURE_CODES.unsupported, `${driver} has no ${operation} playbook (${playbook})`);
  return playbook;
}
