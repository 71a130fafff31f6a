import { ConflictError, type Decider, NotFoundError } from '@ledger/kernel';
import { InventoryErrorCodes } from './inventory.errors';
import type { HostFenceEvent, HostInventoryEvent } from './inventory.events';

/** Who an automatic fence is by (LEDGER_AUTO_FENCE_AFTER_SECONDS). */
export const AUTO_FENCE_ACTOR = 'ledger:auto-fence';

/** Take the host out of use: its holds are released with `reason`, its providers reserved. */
export interface FenceHost {
  readonly type: 'FenceHost';
  readonly hostname: string;
  readonly reason: string;
  /** The operator's user id, or `auto-fence` for the lost-host monitor. */
  readonly by: string;
  readonly at: string;
}

/** Let a fenced host be used again. */
export interface UnfenceHost {
  readonly type: 'UnfenceHost';
  readonly hostname: string;
  readonly by: string;
  readonly at: string;
}

export type HostFenceCommand = FenceHost | UnfenceHost;

/** Whether the host is fenced, folded from its stream. */
export interface HostFenceState {
  /** Null until the host's first report registered it. */
  readonly hostname: string | null;
  /**
   * Every device the host ever reported (removed ones too): a fence reaches
   * each of them, so a device that vanished and comes back is still fenced.
   */
  readonly devices: ReadonlySet<string>;
  /** The fence in force, or null. */
  readonly fenced: { readonly reason: string; readonly at: string } | null;
}

/**
 * Fencing on the host stream `host-<hostname>`. Fencing a fenced host
 * appends nothing (the first reason stands; a retried or automatic fence is
 * harmless); unfencing a host that is not fenced is refused, so an operator
 * learns the host was not what they thought. Cleaning (issue 24, part 3)
 * will sit between the two: UnfenceHost will also require the host's
 * devices to be clean.
 */
export const hostFenceDecider: Decider<HostFenceCommand, HostFenceState, HostInventoryEvent | HostFenceEvent> = {
  decide(command, state) {
    const { hostname } = command;
    if (state.hostname === null) {
      throw new NotFoundError(InventoryErrorCodes.HOST_NOT_FOUND, `host ${hostname} has never reported`, { hostname });
    }
    if (command.type === 'FenceHost') {
      if (state.fenced !== null) return [];
      return [{ type: 'inventory.HostFenced', data: { hostname: state.hostname, reason: command.reason, by: command.by, at: command.at } }];
    }
    if (state.fenced === null) {
      throw new ConflictError(InventoryErrorCodes.HOST_NOT_FENCED, `host ${hostname} is not fenced`, { hostname });
    }
    // Seam for cleaning (part 3): refuse here while any of the host's devices is not yet cleaned.
    return [{ type: 'inventory.HostUnfenced', data: { hostname: state.hostname, fencedAt: state.fenced.at, by: command.by, at: command.at } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'inventory.HostRegistered':
        return { ...state, hostname: event.data.hostname };
      case 'inventory.DeviceDiscovered':
        return state.devices.has(event.data.device.uuid) ? state : { ...state, devices: new Set(state.devices).add(event.data.device.uuid) };
      case 'inventory.HostFenced':
        return { ...state, fenced: { reason: event.data.reason, at: event.data.at } };
      case 'inventory.HostUnfenced':
        return { ...state, fenced: null };
      default:
        return state;
    }
  },
  initialState: () => ({ hostname: null, devices: new Set<string>(), fenced: null }),
};
