import type { SqlExecutor } from '@ledger/processing';
import { KeyListStatement } from '../multi-row';
import type { BatchKeys } from './batch-keys';
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
import { InventoryWorkingSet } from './inventory-working-set';

const select = (columns: readonly string[], table: string, key: string) =>
  new KeyListStatement(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${key} IN ($IN)`);

const hostsByName = select(HOST_COLUMNS, 'inv_hosts', 'hostname');
const devicesByUuid = select(DEVICE_COLUMNS, 'inv_devices', 'uuid');
const deployablesByDevice = select(DEPLOYABLE_COLUMNS, 'inv_deployables', 'device_uuid');
const deployablesByUuid = select(DEPLOYABLE_COLUMNS, 'inv_deployables', 'uuid');
const handlesByDeployable = select(ATTACH_HANDLE_COLUMNS, 'inv_attach_handles', 'deployable_uuid');
const handlesByUuid = select(ATTACH_HANDLE_COLUMNS, 'inv_attach_handles', 'uuid');
const claimsByHandle = select(HANDLE_CLAIM_COLUMNS, 'inv_handle_claims', 'handle_uuid');
const regionProgramsByDeployable = select(REGION_PROGRAM_COLUMNS, 'inv_region_programs', 'deployable_uuid');
const attributesByDeployable = select(ATTRIBUTE_COLUMNS, 'inv_attributes', 'deployable_uuid');
const attributesByUuid = select(ATTRIBUTE_COLUMNS, 'inv_attributes', 'uuid');

/**
 * Reads every stored row the batch's events may read or write that `set`
 * does not hold yet, a few set-based SELECTs per table. A fresh set loads
 * all of them; a set that earlier reads of the same fold filled loads only
 * keys and groups it has not seen, so a row is read from the table at most
 * once per fold.
 */
export async function loadWorkingSet(tx: SqlExecutor, keys: BatchKeys, set = new InventoryWorkingSet()): Promise<InventoryWorkingSet> {
  for (const row of await hostsByName.all<HostRow>(tx, set.hosts.unknown(keys.hostnames))) set.hosts.load(row);
  for (const row of await devicesByUuid.all<DeviceRow>(tx, set.devices.unknown(keys.deviceUuids))) set.devices.load(row);

  // A wholesale delete takes every handle of the doomed deployables, also
  // ones the batch never names, so those are loaded by their deployable.
  const handleParents = new Set(keys.handleParentUuids);
  for (const device of keys.parentDeviceUuids) for (const uuid of set.deployables.keysIn(device)) handleParents.add(uuid);
  for (const row of await deployablesByDevice.all<DeployableRow>(tx, set.deployables.unknownGroups(keys.parentDeviceUuids))) {
    set.deployables.load(row);
    handleParents.add(row.uuid);
  }
  for (const row of await deployablesByUuid.all<DeployableRow>(tx, set.deployables.unknown(keys.deployableUuids))) set.deployables.load(row);

  for (const row of await handlesByDeployable.all<AttachHandleRow>(tx, set.handles.unknownGroups(handleParents))) set.handles.load(row);
  for (const row of await handlesByUuid.all<AttachHandleRow>(tx, set.handles.unknown(keys.handleUuids))) set.handles.load(row);
  for (const row of await claimsByHandle.all<HandleClaimRow>(tx, set.claims.unknown(keys.handleUuids))) set.claims.load(row);
  for (const row of await regionProgramsByDeployable.all<RegionProgramRow>(tx, set.regionPrograms.unknown(keys.deployableUuids))) set.regionPrograms.load(row);

  // Putting or deleting a deployable rewrites its discovered attributes.
  const attributeParents = set.attributes.unknownGroups(new Set([...handleParents, ...keys.deployableUuids]));
  for (const row of await attributesByDeployable.all<AttributeRow>(tx, attributeParents)) set.attributes.load(row);
  for (const row of await attributesByUuid.all<AttributeRow>(tx, set.attributes.unknown(keys.attributeUuids))) set.attributes.load(row);
  return set;
}
