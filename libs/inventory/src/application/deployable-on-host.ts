import { AggregateCache, type EventStore, loadAggregate } from '@ledger/eventstore';
import { isUuid } from '@ledger/kernel';
import type { DeployableSnapshot, DeviceSnapshot } from '../domain/device-snapshot';
import { hostInventoryDecider } from '../domain/host-inventory.decider';
import type { HostInventoryState } from '../domain/host-inventory.state';
import { isValidHostname } from '../domain/hostname';
import { hostStream } from '../domain/streams';

/** A deployable an operator addresses, with the device and host the read model places it on. */
export interface DeployableTarget {
  readonly hostname: string;
  readonly deviceUuid: string;
  readonly deployableUuid: string;
}

export interface DeployableOnHost {
  readonly device: DeviceSnapshot;
  readonly deployable: DeployableSnapshot;
}

/**
 * The deployable as its host's stream knows it now, or undefined when the
 * host no longer reports it: commands about a deployable re-check what the
 * read model told the caller, which may lag.
 */
export async function findDeployableOnHost(
  store: EventStore,
  hostCache: AggregateCache<HostInventoryState>,
  target: DeployableTarget,
): Promise<DeployableOnHost | undefined> {
  if (!isValidHostname(target.hostname) || !isUuid(target.deviceUuid) || !isUuid(target.deployableUuid)) return undefined;
  const { state } = await loadAggregate(store, hostStream(target.hostname), hostInventoryDecider, hostCache);
  const device = state.devices.get(target.deviceUuid.toLowerCase())?.snapshot;
  const deployable = device?.deployables.find((candidate) => candidate.uuid === target.deployableUuid.toLowerCase());
  return device && deployable ? { device, deployable } : undefined;
}
