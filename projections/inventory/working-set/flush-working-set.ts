import type { SqlExecutor } from '@ledger/processing';
import { KeyListStatement, MultiRowUpsert } from '../multi-row';
import {
  ATTACH_HANDLE_COLUMNS,
  ATTRIBUTE_COLUMNS,
  type AttachHandleRow,
  type AttributeRow,
  DEPLOYABLE_COLUMNS,
  type DeployableRow,
  DEVICE_COLUMNS,
  type DeviceRow,
  HANDLE_CLAIM_COLUMNS,
  type HandleClaimRow,
  HOST_COLUMNS,
  type HostRow,
  REGION_PROGRAM_COLUMNS,
  type RegionProgramRow,
} from './inventory-table-rows';
import type { InventoryWorkingSet } from './inventory-working-set';

const upsertHosts = new MultiRowUpsert<HostRow>('inv_hosts', 'hostname', HOST_COLUMNS);
const upsertDevices = new MultiRowUpsert<DeviceRow>('inv_devices', 'uuid', DEVICE_COLUMNS);
const upsertDeployables = new MultiRowUpsert<DeployableRow>('inv_deployables', 'uuid', DEPLOYABLE_COLUMNS);
const upsertHandles = new MultiRowUpsert<AttachHandleRow>('inv_attach_handles', 'uuid', ATTACH_HANDLE_COLUMNS);
const deleteDeployables = new KeyListStatement('DELETE FROM inv_deployables WHERE uuid IN ($IN)');
const deleteHandles = new KeyListStatement('DELETE FROM inv_attach_handles WHERE uuid IN ($IN)');
const upsertClaims = new MultiRowUpsert<HandleClaimRow>('inv_handle_claims', 'handle_uuid', HANDLE_CLAIM_COLUMNS);
const deleteClaims = new KeyListStatement('DELETE FROM inv_handle_claims WHERE handle_uuid IN ($IN)');
const upsertRegionPrograms = new MultiRowUpsert<RegionProgramRow>('inv_region_programs', 'deployable_uuid', REGION_PROGRAM_COLUMNS);
const upsertAttributes = new MultiRowUpsert<AttributeRow>('inv_attributes', 'uuid', ATTRIBUTE_COLUMNS);
const deleteAttributes = new KeyListStatement('DELETE FROM inv_attributes WHERE uuid IN ($IN)');

/**
 * Writes the batch's outcome: every changed row whole, every deleted key
 * gone. A key is either changed or deleted, never both, so the order of
 * the statements does not matter. Hosts and devices are never deleted.
 */
export async function flushWorkingSet(tx: SqlExecutor, set: InventoryWorkingSet): Promise<void> {
  await deleteAttributes.run(tx, set.attributes.deleted);
  await deleteClaims.run(tx, set.claims.deleted);
  await deleteHandles.run(tx, set.handles.deleted);
  await deleteDeployables.run(tx, set.deployables.deleted);
  await upsertHosts.run(tx, set.hosts.changedRows());
  await upsertDevices.run(tx, set.devices.changedRows());
  await upsertDeployables.run(tx, set.deployables.changedRows());
  await upsertHandles.run(tx, set.handles.changedRows());
  await upsertClaims.run(tx, set.claims.changedRows());
  await upsertRegionPrograms.run(tx, set.regionPrograms.changedRows());
  await upsertAttributes.run(tx, set.attributes.changedRows());
}
