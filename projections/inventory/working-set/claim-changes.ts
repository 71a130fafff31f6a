import type { RecordedEvent } from '@ledger/eventstore';
import type { AttachHandleClaim } from '@ledger/inventory';
import { claimDeviceEvent } from './device-changes';
import type { InventoryWorkingSet } from './inventory-working-set';

/** A request took the handle: the claim is remembered apart from the handle row, which a report may drop and bring back. */
export function claimHandle(set: InventoryWorkingSet, claim: AttachHandleClaim, event: RecordedEvent): void {
  const device = claimDeviceEvent(set, claim.deviceUuid, event);
  if (device === undefined) return;
  set.devices.put(device);
  set.claims.put({
    handle_uuid: claim.handleUuid,
    arq_uuid: claim.arqUuid,
    device_uuid: claim.deviceUuid,
    deployable_uuid: claim.deployableUuid,
  });
  markHandle(set, claim.handleUuid, claim.arqUuid);
}

/** The request gave the handle back; a release by another request than the holder's changes nothing. */
export function releaseHandle(set: InventoryWorkingSet, claim: AttachHandleClaim, event: RecordedEvent): void {
  const device = claimDeviceEvent(set, claim.deviceUuid, event);
  if (device === undefined) return;
  set.devices.put(device);
  if (set.claims.get(claim.handleUuid)?.arq_uuid !== claim.arqUuid) return;
  set.claims.delete(claim.handleUuid);
  markHandle(set, claim.handleUuid, null);
}

/** `in_use` and `claimed_by` of a handle row, when the handle is reported now. */
function markHandle(set: InventoryWorkingSet, handleUuid: string, arqUuid: string | null): void {
  const handle = set.handles.get(handleUuid);
  if (handle !== undefined) set.handles.put({ ...handle, in_use: arqUuid === null ? 0 : 1, claimed_by: arqUuid });
}
