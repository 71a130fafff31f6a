import type { BindableBitstream } from '../../domain/bind-program';
import type { DeviceShellFacts } from '../../domain/device-shell';
import type { InventoryAttachHandle } from '../../domain/attach-handle-info';
import type { ArqStateName } from '../../domain/arq.state';

/** A Placement provider (a deployable) as a bind needs to know it. */
export interface ProviderDescription {
  readonly deployableUuid: string;
  /** The deployable's name, which is the provider's: a carve room's names the partition profile it offers. */
  readonly name: string;
  readonly deviceUuid: string;
  readonly hostname: string;
  readonly resourceClass: string;
  readonly traits: readonly string[];
  /** The device's recorded health level (`ok`, `degraded`, `failed`) and why. */
  readonly deviceHealth: string;
  readonly deviceHealthReason: string | null;
  /** The host's agent is lost (no report or heartbeat for the lost-after window). */
  readonly agentLost: boolean;
  /** The host is fenced (an operator or auto-fence): nothing on it is claimable until it is unfenced. */
  readonly hostFenced: boolean;
  /** What the device measures (`{ memoryGiB: 80 }`): charged to capacity quota while bound. */
  readonly capacity: Readonly<Record<string, number>>;
  /** The device's PCI address: a program job names the region by it. */
  readonly pciAddress: string;
  /** What the inventory knows of the device's shell: the ledger's last load and the device's own report (deviceShellOf decides). */
  readonly shell: DeviceShellFacts;
  /** The registered bitstream the region was last loaded with (null: none known). */
  readonly regionBitstreamId: string | null;
}

/**
 * What the allocation commands read from the read models. A command calls
 * `catchUp` once first: the answers then include everything recorded before
 * the command arrived (a bind right after a report, a create right after a
 * profile, a delete by instance right after the bind).
 */
export interface AllocationDirectory {
  catchUp(): Promise<void>;
  providerByRpUuid(rpUuid: string): Promise<ProviderDescription | undefined>;
  /** The deployable's attach handles, free ones (per the read model) first. */
  attachHandlesOf(deployableUuid: string): Promise<InventoryAttachHandle[]>;
  arqsOfInstance(instanceUuid: string): Promise<{ uuid: string; projectId: string; state: ArqStateName }[]>;
  /** A registered bitstream (retired ones too), with whether its signature is trusted now. */
  bitstream(bitstreamId: string): Promise<BindableBitstream | undefined>;
  /** The registered bitstreams of a function (32 lower-case hex digits), oldest first, retired ones too. */
  bitstreamsOfFunction(functionId: string): Promise<BindableBitstream[]>;
}

export const ALLOCATION_DIRECTORY = Symbol('ALLOCATION_DIRECTORY');
