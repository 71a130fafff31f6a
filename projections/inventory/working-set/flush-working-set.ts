import type { SqlExecutor } from '@ledger/processing';
import { KeyListStatement } from '../multi-row';
import { ChangeWriter } from './change-writer';
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

const writeHosts = new ChangeWriter<HostRow>('inv_hosts', 'hostname', HOST_COLUMNS);
const writeDevices = new ChangeWriter<DeviceRow>('inv_devices', 'uuid', DEVICE_COLUMNS);
const writeDeployables = new ChangeWriter<DeployableRow>('inv_deployables', 'uuid', DEPLOYABLE_COLUMNS);
const writeHandles = new ChangeWriter<AttachHandleRow>('inv_attach_handles', 'uuid', ATTACH_HANDLE_COLUMNS);
const deleteDeployables = new KeyListStatement('DELETE FROM inv_deployables WHERE uuid IN ($IN)');
const deleteHandles = new KeyListStatement('DELETE FROM inv_attach_handles WHERE uuid IN ($IN)');
const writeClaims = new ChangeWriter<HandleClaimRow>('inv_handle_claims', 'handle_uuid', HANDLE_CLAIM_COLUMNS);
const deleteClaims = new KeyListStatement('DELETE FROM inv_handle_claims WHERE handle_uuid IN ($IN)');
const writeRegionPrograms = new ChangeWriter<RegionProgramRow>('inv_region_programs', 'deployable_uuid', REGION_PROGRAM_COLUMNS);
const writeAttributes = new ChangeWriter<AttributeRow>('inv_attributes', 'uuid', ATTRIBUTE_COLUMNS);
const deleteAttributes = new KeyListStatement('DELETE FROM inv_attributes WHERE uuid IN ($IN)');

/**
 * Writes the batch's outcome: every changed row (in the columns that
 * changed, see ChangeWriter), every deleted key gone. A key is either changed or deleted, never both, so the order of
 * the statements does not matter. Hosts and devices are never deleted.
 */
export async function flushWorkingSet(tx: SqlExecutor, set: InventoryWorkingSet): Promise<void> {
  await deleteAttributes.run(tx, set.attributes.deletedKeys());
  await deleteClaims.run(tx, set.claims.deletedKeys());
  await deleteHandles.run(tx, set.handles.deletedKeys());
  await deleteDeployables.run(tx, set.deployables.deletedKeys());
  await writeHosts.write(tx, set.hosts.changes());
  await writeDevices.write(tx, set.devices.changes());
  await writeDeployables.write(tx, set.deployables.changes());
  await writeHandles.write(tx, set.handles.changes());
  await writeClaims.write(tx, set.claims.changes());
  await writeRegionPrograms.write(tx, set.regionPrograms.changes());
  await writeAttributes.write(tx, set.attributes.changes());
}
