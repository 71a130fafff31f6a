import type { RecordedEvent } from '@ledger/eventstore';
import { type DeviceHealthChangedDataV1, describeHealthCause, upcastDeviceHealthChanged } from '@ledger/inventory';

type Data = Record<string, unknown>;

const quoted = (value: unknown): string => (value === null || value === undefined ? '-' : String(value));

/** One line an auditor reads in a device's timeline; the event itself is in the log at its position. */
const SUMMARIES: Readonly<Record<string, (data: Data) => string>> = {
  'inventory.DeviceDiscovered': (d) => `discovered on ${quoted(d.hostname)}`,
  'inventory.DeviceChanged': (d) => `changed: ${((d.changedFields as string[]) ?? []).join(', ')}`,
  'inventory.DeviceRemoved': (d) => `removed from ${quoted(d.hostname)}`,
  'inventory.AttachHandlesAdded': (d) => `${((d.handles as unknown[]) ?? []).length} attach handle(s) added on deployable ${quoted(d.deployableUuid)}`,
  'inventory.AttachHandlesRemoved': (d) => `${((d.handleUuids as unknown[]) ?? []).length} attach handle(s) removed from deployable ${quoted(d.deployableUuid)}`,
  'inventory.DeviceDisabled': (d) => `disabled${d.reason ? `: ${String(d.reason)}` : ''}`,
  'inventory.DeviceEnabled': () => 'enabled',
  'inventory.AttachHandleClaimed': (d) => `handle ${quoted(d.handleUuid)}${partitionOf(d)} claimed by request ${quoted(d.arqUuid)}`,
  'inventory.AttachHandleReleased': (d) => `handle ${quoted(d.handleUuid)}${partitionOf(d)} released by request ${quoted(d.arqUuid)}`,
  'inventory.PartitionCarveReserved': (d) => `${spanOf(d)} set aside for a ${quoted(d.profile)} partition (bind ${quoted(d.bindId)})`,
  'inventory.PartitionCarveReleased': (d) => `${spanOf(d)} set aside for bind ${quoted(d.bindId)} given back uncarved`,
  'inventory.PartitionCarved': (d) => `partition ${quoted(d.handle)} (${quoted(d.profile)}, ${spanOf(d)}) carved${d.bindId ? ` for bind ${String(d.bindId)}` : ''}`,
  'inventory.PartitionDestroyed': (d) => `partition ${quoted(d.handle)} destroyed (${quoted(d.reason)})`,
  'inventory.PartitionIdle': (d) =>
    d.afterClean
      ? `partition ${quoted(d.handle)} released to cleaning: idle, to be reclaimed, once clean`
      : `partition ${quoted(d.handle)} idle (period ${quoted(d.idleCount)}): reclaimed after ${quoted(d.idleMs)} ms unless used`,
  'inventory.PartitionReclaimClaimed': (d) => `partition ${quoted(d.handle)} held for its reclaim ${quoted(d.reclaimId)}`,
  'inventory.PartitionReclaimReleased': (d) => `partition ${quoted(d.handle)} given back by reclaim ${quoted(d.reclaimId)} (its destroy failed)`,
  'inventory.DeviceHealthChanged': (d) => healthSummary(d),
  'inventory.DeviceHealthCheckPassed': (d) => `healthy check ${quoted(d.healthyChecks)} of ${quoted(d.of)} toward recovery`,
  'inventory.DeviceDrainRequested': (d) =>
    `drain requested of ${((d.holders as { arqUuid: string }[]) ?? []).map((holder) => `request ${holder.arqUuid}`).join(', ')} (policy ${quoted(d.policyVersion)})`,
  'inventory.RegionProgrammed': (d) => `region ${quoted(d.region)} programmed with bitstream ${quoted(d.bitstreamId)} (function ${quoted(d.functionId)})`,
  'inventory.RegionProgramFailed': (d) => `programming region ${quoted(d.region)} failed: ${quoted(d.code)}`,
  'inventory.ShellProgrammed': (d) => `shell programmed with bitstream ${quoted(d.bitstreamId)} (interface ${quoted(d.interfaceId)})`,
  'inventory.VfsConfigured': (d) => `${quoted(d.numVfs)} VFs configured`,
  'allocation.ArqBindStarted': (d) => `request ${quoted(d.uuid)} bind started for instance ${quoted(d.instanceUuid)}`,
  'allocation.ArqBound': (d) => `request ${quoted(d.uuid)} bound`,
  'allocation.ArqBindFailed': (d) => `request ${quoted(d.uuid)} bind failed: ${quoted(d.code)}`,
  'allocation.ArqUnbound': (d) => `request ${quoted(d.uuid)} unbound`,
  'allocation.ArqDeleted': (d) => `request ${quoted(d.uuid)} deleted`,
};

/** ` (partition MIG-…)` when a claim names the partition its handle is. */
const partitionOf = (d: Data): string => {
  const partition = d.partition as { handle?: string } | undefined;
  return partition?.handle ? ` (partition ${partition.handle})` : '';
};

/** `slices 2–3` of the parent. */
const spanOf = (d: Data): string => {
  const start = Number(d.start);
  const slices = Number(d.slices);
  return slices > 1 ? `slices ${start}–${start + slices - 1}` : `slice ${start}`;
};

/** `health failed: Xid 79 (xid 79; drain, until an operator clears it; policy 1)`, or how it came back. */
function healthSummary(raw: Data): string {
  const d = upcastDeviceHealthChanged(raw as unknown as DeviceHealthChangedDataV1);
  const head = `health ${quoted(d.health)}${d.reason ? `: ${d.reason}` : ''}`;
  const policy = d.policyVersion === null ? '' : `policy ${d.policyVersion}`;
  if (d.recoveredBy) {
    const how = 'operator' in d.recoveredBy ? `cleared by ${d.recoveredBy.operator}${d.recoveredBy.note ? ` (${d.recoveredBy.note})` : ''}` : `after ${d.recoveredBy.healthyChecks} healthy check(s)`;
    return `${head}, ${how}${policy ? `; ${policy}` : ''}`;
  }
  if (d.health === 'ok') return head;
  const recovery = d.recovery === 'operator' ? 'until an operator clears it' : d.recovery ? `until ${d.recovery.healthyChecks} healthy check(s) in a row` : '';
  const parts = [d.cause ? describeHealthCause(d.cause) : null, `${d.effect}${recovery ? `, ${recovery}` : ''}`, policy || null].filter((part) => part !== null);
  return `${head} (${parts.join('; ')})`;
}

/** The event types a device's timeline shows: every one of them names the device or a request bound to it. */
export const TIMELINE_EVENT_TYPES: readonly string[] = Object.keys(SUMMARIES);

export const summarizeDeviceEvent = (event: RecordedEvent): string => SUMMARIES[event.type]?.((event.data ?? {}) as Data) ?? event.type;
