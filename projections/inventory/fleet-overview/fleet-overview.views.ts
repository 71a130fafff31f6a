import type { DeviceView } from '../inventory.views';
import type { AgentStatus } from '../live-view/live-view.views';

/** How many hosts and devices match a filter, per state (GET /api/v1/fleet). */
export interface FleetCounts {
  hosts: number;
  /** Hosts with something wrong: agent not up, a failed provision, or a device not healthy or out of service. */
  attention: number;
  byAgent: Record<AgentStatus, number>;
  byHostStatus: Record<string, number>;
  devices: number;
  byType: Record<string, number>;
  byDeviceStatus: Record<string, number>;
  byHealth: Record<string, number>;
}

/** What the overview shows of each device of a listed host. */
export type FleetDeviceView = Pick<DeviceView, 'uuid' | 'type' | 'model' | 'pciAddress' | 'status' | 'health' | 'healthReason'>;

export interface FleetHostView {
  readonly hostname: string;
  readonly status: string;
  readonly agentStatus: AgentStatus;
  readonly lastSeenAt: string | null;
  readonly deviceCount: number;
  /** Every device the host reports, by PCI address. */
  readonly devices: readonly FleetDeviceView[];
}

export interface FleetOverview {
  readonly counts: FleetCounts;
  /** A page of the matching hosts, by name. */
  readonly hosts: readonly FleetHostView[];
  readonly nextCursor: string | null;
}
