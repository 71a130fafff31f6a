import { ValidationError } from '@ledger/kernel';
import { hostnameProblem } from './hostname';
import { InventoryErrorCodes } from './inventory.errors';

/** The host stream: everything its agent reported (the consistency boundary of a report). */
export const hostStream = (hostname: string): string => `host-${hostname}`;

/** The host stream of a hostname from a caller: the stream name comes from it, so it is checked before anything is read. */
export function checkedHostStream(hostname: string): string {
  const problem = hostnameProblem(hostname);
  if (problem) throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `hostname ${problem}`, { path: 'hostname' });
  return hostStream(hostname);
}

/** The device stream: facts a device guards that operators, binds and finished jobs cause (maintenance, claims, health, programming, VFs). */
export const deviceStream = (deviceUuid: string): string => `device-${deviceUuid}`;
