import type { DeviceState } from '../device.decider';
import type { ReportedPartitioning } from '../host-report';
import type { PartitionSpan } from '../inventory.events';
import { carvedPartitionIdentity } from './partition-deployables';
import { spansOverlap } from './partition-layout';

/** One way a device's partitions do not add up (docs/partitions.md, "Never stranded"). */
export type StrandedPartition =
  | { readonly problem: 'overlap'; readonly spans: readonly [PartitionSpan, PartitionSpan] }
  | { readonly problem: 'beyond-capacity'; readonly slices: number; readonly capacity: number }
  | { readonly problem: 'carved-not-reported'; readonly handle: string }
  | { readonly problem: 'held-by-ended-request'; readonly handle: string; readonly arqUuid: string }
  | { readonly problem: 'reserved-by-ended-bind'; readonly bindId: string; readonly arqUuid: string }
  | { readonly problem: 'held-by-ended-reclaim'; readonly handle: string; readonly reclaimId: string };

export interface PartitionFacts {
  readonly hostname: string;
  readonly deviceUuid: string;
  readonly pciAddress: string;
  /** What the device's agent reports now. */
  readonly partitioning: ReportedPartitioning;
  /** The device's stream. */
  readonly device: DeviceState;
  /** Requests bound or binding now: a claim or a reservation of any other is stranded. */
  readonly liveArqs: ReadonlySet<string>;
  /** Reclaims still running (their workflow ids): a reclaim's hold on any other is stranded. Absent: none runs. */
  readonly liveReclaims?: ReadonlySet<string>;
}

/**
 * Whether every partition of a device is accounted for, once its agent has
 * reported after the last carve or destroy: each partition the device's
 * stream says was carved is reported (or destroyed), each reported one is
 * free (and so offered) or held by a live request, each span set aside
 * belongs to a bind still running, each handle held for a reclaim belongs
 * to a reclaim still running (a crash between its claim and its destroy
 * ends destroyed or free again), and what is carved and set aside fits
 * the parent without overlap. Empty: nothing is stranded.
 */
export function strandedPartitions(facts: PartitionFacts): StrandedPartition[] {
  const { partitioning, device } = facts;
  const partitions = device.partitions ?? { reserved: {}, carved: {}, jobs: {} };
  const problems: StrandedPartition[] = [];
  const reported = new Set(partitioning.partitions.map((partition) => partition.handle));
  for (const handle of Object.keys(partitions.carved)) if (!reported.has(handle)) problems.push({ problem: 'carved-not-reported', handle });
  const claimsByHandle = new Map(Object.values(device.claims).map((claim) => [claim.handleUuid, claim]));
  for (const partition of partitioning.partitions) {
    const { handleUuid } = carvedPartitionIdentity(facts.hostname, facts.deviceUuid, facts.pciAddress, partitioning.kind, partition);
    const claim = claimsByHandle.get(handleUuid);
    if (claim && !facts.liveArqs.has(claim.arqUuid)) problems.push({ problem: 'held-by-ended-request', handle: partition.handle, arqUuid: claim.arqUuid });
  }
  for (const entry of Object.values(partitions.handles ?? {})) {
    if (entry.reclaimId !== undefined && !facts.liveReclaims?.has(entry.reclaimId)) problems.push({ problem: 'held-by-ended-reclaim', handle: entry.handle, reclaimId: entry.reclaimId });
  }
  for (const [bindId, span] of Object.entries(partitions.reserved)) {
    if (!facts.liveArqs.has(span.arqUuid)) problems.push({ problem: 'reserved-by-ended-bind', bindId, arqUuid: span.arqUuid });
  }
  const spans: PartitionSpan[] = [...partitioning.partitions, ...Object.values(partitions.reserved)];
  spans.forEach((span, index) => {
    const other = spans.slice(0, index).find((candidate) => spansOverlap(candidate, span));
    if (other) problems.push({ problem: 'overlap', spans: [other, span] });
  });
  const used = spans.reduce((sum, span) => sum + span.slices, 0);
  if (used > partitioning.slices) problems.push({ problem: 'beyond-capacity', slices: used, capacity: partitioning.slices });
  return problems;
}
