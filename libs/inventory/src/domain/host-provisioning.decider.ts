import { ConflictError, type Decider, NotFoundError } from '@ledger/kernel';
import { InventoryErrorCodes } from './inventory.errors';
import type { HostInventoryEvent, HostProvisioningEvent } from './inventory.events';

/** A provision workflow begins bringing the host into service. */
export interface StartHostProvisioning {
  readonly type: 'StartHostProvisioning';
  readonly hostname: string;
  readonly provisionId: string;
  readonly at: string;
}

/** Every step was done: the host is in service. */
export interface CompleteHostProvisioning {
  readonly type: 'CompleteHostProvisioning';
  readonly hostname: string;
  readonly provisionId: string;
  readonly at: string;
}

/** The provisioning stopped: the host stays out of service. */
export interface FailHostProvisioning {
  readonly type: 'FailHostProvisioning';
  readonly hostname: string;
  readonly provisionId: string;
  readonly code: string;
  readonly reason: string;
  readonly at: string;
}

export type HostProvisioningCommand = StartHostProvisioning | CompleteHostProvisioning | FailHostProvisioning;

/** Where the host stands with provisioning, folded from its stream. */
export interface HostProvisioningState {
  /** Null until the host's first report registered it. */
  readonly hostname: string | null;
  /** The provision workflow running now, or null. */
  readonly running: string | null;
  /** How each ended provisioning ended, by its id (a repeated end appends nothing). */
  readonly ended: ReadonlyMap<string, 'provisioned' | 'failed'>;
  /** The last provisioning that ended, or null: what the host is now. */
  readonly last: { readonly provisionId: string; readonly outcome: 'provisioned' | 'failed' } | null;
}

/**
 * Provisioning on the host stream `host-<hostname>`: one provision workflow
 * at a time. Each command is keyed by the workflow's id, so a command sent
 * again after a crash appends nothing; the host must have reported first
 * (its agent registered it), as the workflow needs its devices.
 */
export const hostProvisioningDecider: Decider<HostProvisioningCommand, HostProvisioningState, HostInventoryEvent | HostProvisioningEvent> = {
  decide(command, state) {
    const { hostname, provisionId } = command;
    if (state.hostname === null) {
      throw new NotFoundError(InventoryErrorCodes.HOST_NOT_FOUND, `host ${hostname} has never reported: start its agent first`, { hostname });
    }
    if (state.running === provisionId && command.type === 'StartHostProvisioning') return [];
    if (state.ended.has(provisionId)) return [];
    if (command.type === 'StartHostProvisioning') {
      if (state.running !== null) throw new HostProvisioningError(hostname, state.running);
      return [{ type: 'inventory.HostProvisioningStarted', data: { hostname, provisionId, startedAt: command.at } }];
    }
    if (state.running !== provisionId) {
      throw new ConflictError(InventoryErrorCodes.PROVISIONING_NOT_RUNNING, `provisioning ${provisionId} of host ${hostname} is not running`, {
        hostname,
        provisionId,
        running: state.running,
      });
    }
    if (command.type === 'CompleteHostProvisioning') return [{ type: 'inventory.HostProvisioned', data: { hostname, provisionId, provisionedAt: command.at } }];
    return [{ type: 'inventory.HostProvisionFailed', data: { hostname, provisionId, code: command.code, reason: command.reason, failedAt: command.at } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'inventory.HostRegistered':
        return { ...state, hostname: event.data.hostname };
      case 'inventory.HostProvisioningStarted':
        return { ...state, running: event.data.provisionId };
      case 'inventory.HostProvisioned':
        return ended(state, event.data.provisionId, 'provisioned');
      case 'inventory.HostProvisionFailed':
        return ended(state, event.data.provisionId, 'failed');
      default:
        return state;
    }
  },
  initialState: () => ({ hostname: null, running: null, ended: new Map(), last: null }),
};

function ended(state: HostProvisioningState, provisionId: string, outcome: 'provisioned' | 'failed'): HostProvisioningState {
  return { ...state, running: null, ended: new Map(state.ended).set(provisionId, outcome), last: { provisionId, outcome } };
}

/** Another provision workflow is bringing the host into service; nothing was recorded. */
export class HostProvisioningError extends ConflictError {
  constructor(hostname: string, running: string) {
    super(InventoryErrorCodes.HOST_PROVISIONING, `host ${hostname} is being provisioned already (workflow provision ${running})`, { hostname, provisionId: running });
  }
}
