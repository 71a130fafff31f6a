import { type EventStore, loadAggregate } from '@ledger/eventstore';
import { deviceDecider, deviceStream, hostInventoryDecider, hostStream, strandedPartitions } from '@ledger/inventory';

/**
 * The never-stranded check (docs/partitions.md) over every partitionable
 * device of `hostname`: its host stream's last report, the device's
 * stream, and `liveArqs` (the requests Bound or BindStarted now).
 */
export async function strandedPartitionsOn(store: EventStore, hostname: string, liveArqs: ReadonlySet<string>): Promise<string[]> {
  const { state: host } = await loadAggregate(store, hostStream(hostname), hostInventoryDecider);
  const problems: string[] = [];
  for (const { snapshot } of host.devices.values()) {
    if (!snapshot.partitioning) continue;
    const { state: device } = await loadAggregate(store, deviceStream(snapshot.uuid), deviceDecider);
    const found = strandedPartitions({ hostname, deviceUuid: snapshot.uuid, pciAddress: snapshot.pciAddress, partitioning: snapshot.partitioning, device, liveArqs });
    problems.push(...found.map((problem) => `${hostname} ${snapshot.uuid}: ${JSON.stringify(problem)}`));
  }
  return problems;
}

/** The requests a partition may be held by: Bound or binding. */
export const liveArqsOf = (arqs: readonly { readonly uuid: string; readonly state: string }[]): Set<string> =>
  new Set(arqs.filter((arq) => arq.state === 'Bound' || arq.state === 'BindStarted').map((arq) => arq.uuid));
