import type { RecordedEvent } from '@ledger/eventstore';
import type { RegionProgrammed, RegionProgramFailed } from '@ledger/inventory';
import { claimDeviceEvent } from './device-changes';
import type { RegionProgramRow } from './inventory-table-rows';
import type { InventoryWorkingSet } from './inventory-working-set';

/** The region holds a new function: remembered apart from the deployable row, which a report may drop and bring back. */
export function programRegion(set: InventoryWorkingSet, data: RegionProgrammed['data'], event: RecordedEvent): void {
  const device = claimDeviceEvent(set, data.deviceUuid, event);
  if (device === undefined) return;
  set.devices.put({ ...device, updated_at: event.recordedAt });
  holdInRegion(set, { deployable_uuid: data.deployableUuid, device_uuid: data.deviceUuid, bitstream_id: data.bitstreamId, function_id: data.functionId, programmed_at: data.programmedAt });
}

/**
 * A failed load changes the record only when the agent read back another
 * function than the one recorded: the region then holds that, from no
 * known bitstream. A failure that left the previous function (or that the
 * agent could not read back) keeps the record as it was.
 */
export function regionProgramFailed(set: InventoryWorkingSet, data: RegionProgramFailed['data'], event: RecordedEvent): void {
  const device = claimDeviceEvent(set, data.deviceUuid, event);
  if (device === undefined) return;
  set.devices.put(device);
  const recorded = set.regionPrograms.get(data.deployableUuid);
  if (data.regionHolds === null || data.regionHolds.functionId === (recorded?.function_id ?? null)) return;
  holdInRegion(set, { deployable_uuid: data.deployableUuid, device_uuid: data.deviceUuid, bitstream_id: null, function_id: data.regionHolds.functionId, programmed_at: recorded?.programmed_at ?? null });
}

export function programShell(set: InventoryWorkingSet, deviceUuid: string, interfaceId: string, event: RecordedEvent): void {
  const device = claimDeviceEvent(set, deviceUuid, event);
  if (device !== undefined) set.devices.put({ ...device, shell_interface_id: interfaceId, updated_at: event.recordedAt });
}

export function configureVfs(set: InventoryWorkingSet, deviceUuid: string, numVfs: number, event: RecordedEvent): void {
  const device = claimDeviceEvent(set, deviceUuid, event);
  if (device !== undefined) set.devices.put({ ...device, configured_vfs: numVfs, updated_at: event.recordedAt });
}

/** The durable record, and the deployable row's copy of it when the deployable is reported now. */
function holdInRegion(set: InventoryWorkingSet, program: RegionProgramRow): void {
  set.regionPrograms.put(program);
  const deployable = set.deployables.get(program.deployable_uuid);
  if (deployable !== undefined) {
    set.deployables.put({ ...deployable, bitstream_id: program.bitstream_id, function_id: program.function_id, programmed_at: program.programmed_at });
  }
}
