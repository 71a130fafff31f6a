import { type Decider, isUuid, ValidationError } from '@ledger/kernel';
import { InventoryErrorCodes } from './inventory.errors';
import type { DriverOperation, HostDriverEvent, PlaybookRecap } from './inventory.events';

/** A driver job finished: record what it did to the host's driver (the jobs context sends this). */
export interface RecordDriverOutcome {
  readonly type: 'RecordDriverOutcome';
  readonly hostname: string;
  readonly jobId: string;
  readonly driver: string;
  readonly operation: DriverOperation;
  readonly outcome: 'completed' | 'failed';
  readonly version: string | null;
  readonly recap: PlaybookRecap | null;
  /** Why it failed; required when `outcome` is failed. */
  readonly reason: string | null;
}

/** The driver jobs already recorded on the host, so a repeated outcome appends nothing. */
export interface HostDriversState {
  readonly jobIds: ReadonlySet<string>;
}

const DRIVER = /^[a-z0-9][a-z0-9-]{0,62}$/;
const OPERATIONS: readonly DriverOperation[] = ['install', 'uninstall', 'update'];

/** Driver facts on the host stream `host-<hostname>`: one per driver job, whichever way it ended. */
export const hostDriversDecider: Decider<RecordDriverOutcome, HostDriversState, HostDriverEvent> = {
  decide(command, state) {
    const { hostname, jobId, driver, operation, recap } = command;
    if (!isUuid(jobId)) throw invalid('jobId', 'must be a uuid');
    if (!DRIVER.test(driver)) throw invalid('driver', 'must match ^[a-z0-9][a-z0-9-]{0,62}$');
    if (!OPERATIONS.includes(operation)) throw invalid('operation', `must be one of ${OPERATIONS.join(', ')}`);
    if (state.jobIds.has(jobId.toLowerCase())) return [];
    const id = jobId.toLowerCase();
    if (command.outcome === 'failed') {
      if (!command.reason) throw invalid('reason', 'is required when the job failed');
      return [{ type: 'inventory.DriverFailed', data: { hostname, driver, operation, recap, reason: command.reason, jobId: id } }];
    }
    if (operation === 'uninstall') return [{ type: 'inventory.DriverUninstalled', data: { hostname, driver, recap, jobId: id } }];
    return [{ type: 'inventory.DriverInstalled', data: { hostname, driver, version: command.version, recap, jobId: id } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'inventory.DriverInstalled':
      case 'inventory.DriverUninstalled':
      case 'inventory.DriverFailed':
        return { jobIds: new Set([...state.jobIds, event.data.jobId]) };
      default:
        return state;
    }
  },
  initialState: () => ({ jobIds: new Set() }),
};

const invalid = (path: string, reason: string) =>
  new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `driver outcome: ${path} ${reason}`, { path, reason });
