import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { HostHeartbeat } from '../../domain/host-heartbeat';

/** What a heartbeat recorded: the AgentBack and health changes it appended, and how its devices resolved. */
export interface HeartbeatResult {
  readonly appended: number;
  /** Global position of the last appended event; undefined when nothing was appended. */
  readonly position: number | undefined;
  /** Devices the host reports, with their uuids, in the heartbeat's order. */
  readonly devices: readonly { readonly pciAddress: string; readonly deviceUuid: string }[];
  /** PCI addresses the host has not reported (yet): ignored. */
  readonly unknownDevices: readonly string[];
}

/**
 * An agent's heartbeat: the agent is alive, and its devices are this
 * healthy. Telemetry stays out: it is the live view's, never an event.
 * `receivedAt` defaults to the time the handler runs.
 */
export class RecordHeartbeatCommand extends LedgerCommand<HeartbeatResult> {
  constructor(
    readonly heartbeat: HostHeartbeat,
    readonly context: CommandContext,
    readonly receivedAt?: string,
  ) {
    super();
  }
}
