import type { JobCommand } from '@ledger/jobs';
import { at } from './jobs-history';

/** Job and boot ids of the scenario: uuids numbered n. */
export const id = (n: number): string => `0196b3c2-0000-7000-8000-${String(n).padStart(12, '0')}`;
export const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
export const BOOT_A = id(901);
export const BOOT_B = id(902);
export const recap = { ok: 7, changed: 3, failed: 0, unreachable: 0, skipped: 1 };
export const vfs = { deviceUuid: DEVICE, pciAddress: '0000:5e:00.0', numVfs: 4 };

const request = (n: number, hostname: string, kind: string, params: unknown, seconds: number, timeoutSeconds?: number): JobCommand => ({
  type: 'RequestJob',
  jobId: id(n),
  hostname,
  kind,
  params,
  timeoutSeconds,
  requestedAt: at(seconds),
});
const dispatch = (n: number, hostname: string, agentBoot: string | null, seconds: number): JobCommand => ({
  type: 'DispatchJob',
  jobId: id(n),
  hostname,
  agentBoot,
  dispatchedAt: at(seconds),
});
const complete = (n: number, evidence: object, seconds: number): JobCommand => ({ type: 'CompleteJob', jobId: id(n), evidence, completedAt: at(seconds) });

/**
 * Nine jobs on two hosts: completed, failed, timed out, waiting, redelivered,
 * and driver jobs of every outcome (installed, failed update, uninstalled).
 */
export const jobsScenario: JobCommand[] = [
  request(1, 'compute-1', 'configure-vfs', vfs, 0),
  dispatch(1, 'compute-1', BOOT_A, 1),
  complete(1, { numVfs: 4 }, 2),
  request(2, 'compute-1', 'install-driver', { driver: 'nvidia-gpu' }, 3),
  dispatch(2, 'compute-1', BOOT_A, 4),
  complete(2, { recap, playbook: 'nvidia-gpu/install.yml', version: '550.54.15' }, 5),
  request(3, 'compute-1', 'update-driver', { driver: 'nvidia-gpu', version: '560.1' }, 6),
  dispatch(3, 'compute-1', BOOT_A, 7),
  { type: 'FailJob', jobId: id(3), code: 'DRIVER.PLAYBOOK_FAILED', reason: 'apt failed', evidence: { recap: { ...recap, failed: 1 } }, failedAt: at(8) },
  request(4, 'compute-2', 'discover', {}, 9, 600),
  request(5, 'compute-1', 'program', { deviceUuid: DEVICE, deployableUuid: id(77), pciAddress: '0000:5e:00.0', image: { imageUuid: id(78) } }, 10),
  dispatch(5, 'compute-1', BOOT_A, 11),
  dispatch(5, 'compute-1', BOOT_B, 12),
  request(6, 'compute-2', 'install-driver', { driver: 'intel-qat' }, 13, 5),
  { type: 'TimeOutJob', jobId: id(6), now: at(18) },
  request(7, 'compute-1', 'install-driver', { driver: 'sriov-nic' }, 19),
  complete(7, { recap }, 20),
  request(8, 'compute-1', 'uninstall-driver', { driver: 'sriov-nic' }, 21),
  complete(8, { recap }, 22),
  request(9, 'compute-1', 'attach', { deviceUuid: DEVICE, pciAddress: '0000:5e:00.1', instanceUuid: id(79) }, 23),
];
