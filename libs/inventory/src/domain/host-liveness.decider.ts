import { type Decider, NotFoundError } from '@ledger/kernel';
import { InventoryErrorCodes } from './inventory.errors';
import type { HostInventoryEvent, HostLivenessEvent } from './inventory.events';

/** A report or heartbeat arrived: the agent is alive (and back, if it was lost). */
export interface RecordAgentSeen {
  readonly type: 'RecordAgentSeen';
  readonly hostname: string;
  /** When the ledger received it (ISO-8601). */
  readonly seenAt: string;
}

/** The liveness monitor found the host overdue; `lastSeenAt` is what it read from the live view. */
export interface MarkAgentLost {
  readonly type: 'MarkAgentLost';
  readonly hostname: string;
  readonly lastSeenAt: string;
  readonly detectedAt: string;
}

export type HostLivenessCommand = RecordAgentSeen | MarkAgentLost;

/** What a heartbeat needs to know of its host, folded from the host stream. */
export interface HostLivenessState {
  /** Null until the host's first report is accepted. */
  readonly hostname: string | null;
  /** Device uuids the host reports now, by PCI address. */
  readonly devices: ReadonlyMap<string, string>;
  /** `detectedAt` of the AgentLost in force; null while the agent is up. */
  readonly lostAt: string | null;
  /** `backAt` of the last AgentBack. */
  readonly backAt: string | null;
}

/**
 * The agent's liveness on the host stream `host-<hostname>`, beside what its
 * reports record. Lost and back alternate: marking a lost host lost, or
 * seeing a host that is up, appends nothing. A heartbeat for a host that
 * never reported is refused, so the ledger keeps no liveness for hosts it
 * does not know.
 */
export const hostLivenessDecider: Decider<HostLivenessCommand, HostLivenessState, HostInventoryEvent | HostLivenessEvent> = {
  decide(command, state) {
    if (command.type === 'RecordAgentSeen') {
      if (state.hostname === null) {
        throw new NotFoundError(InventoryErrorCodes.HOST_NOT_FOUND, `host ${command.hostname} has never reported; send a report first`, {
          hostname: command.hostname,
        });
      }
      if (state.lostAt === null) return [];
      return [{ type: 'inventory.AgentBack', data: { hostname: state.hostname, lostAt: state.lostAt, backAt: command.seenAt } }];
    }
    if (state.hostname === null || state.lostAt !== null) return [];
    // The monitor read a last-seen time older than a return this stream already
    // records: a heartbeat it has not seen yet arrived, so the host is not lost.
    if (state.backAt !== null && state.backAt > command.lastSeenAt) return [];
    return [{ type: 'inventory.AgentLost', data: { hostname: state.hostname, lastSeenAt: command.lastSeenAt, detectedAt: command.detectedAt } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'inventory.HostRegistered':
        return { ...state, hostname: event.data.hostname };
      case 'inventory.DeviceDiscovered':
        return { ...state, devices: new Map(state.devices).set(event.data.device.pciAddress, event.data.device.uuid) };
      case 'inventory.DeviceRemoved': {
        const devices = new Map([...state.devices].filter(([, uuid]) => uuid !== event.data.deviceUuid));
        return { ...state, devices };
      }
      case 'inventory.AgentLost':
        return { ...state, lostAt: event.data.detectedAt };
      case 'inventory.AgentBack':
        return { ...state, lostAt: null, backAt: event.data.backAt };
      default:
        return state;
    }
  },
  initialState: () => ({ hostname: null, devices: new Map(), lostAt: null, backAt: null }),
};
