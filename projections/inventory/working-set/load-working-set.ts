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

/** Reads every stored row the batch's events may read or write, a few set-based SELECTs per table. */
export async function loadWorkingSet(tx: SqlExecutor, keys: BatchKeys): Promise<InventoryWorkingSet> {
  const set = new InventoryWorkingSet();
  for (const row of await hostsByName.all<HostRow>(tx, keys.hostnames)) set.hosts.load(row);
  for (const row of await devicesByUuid.all<DeviceRow>(tx, keys.deviceUuids)) set.devices.load(row);

  // A wholesale delete takes every handle of the doomed deployables, also
  // ones the batch never names, so those are loaded by their deployable.
  const handleParents = new Set(keys.handleParentUuids);
  for (const row of await deployablesByDevice.all<DeployableRow>(tx, keys.parentDeviceUuids)) {
    set.deployables.load(row);
    handleParents.add(row.uuid);
  }
  const unseenDeployables = [...keys.deployableUuids].filter((uuid) => set.deployables.get(uuid) === undefined);
  for (const row of await deployablesByUuid.all<DeployableRow>(tx, unseenDeployables)) set.deployables.load(row);

  for (const row of await handlesByDeployable.all<AttachHandleRow>(tx, handleParents)) set.handles.load(row);
  const unseenHandles = [...keys.handleUuids].filter((uuid) => set.handles.get(uuid) === undefined);
  for (const row of await handlesByUuid.all<AttachHandleRow>(tx, unseenHandles)) set.handles.load(row);
  for (const row of await claimsByHandle.all<HandleClaimRow>(tx, keys.handleUuids)) set.claims.load(row);
  for (const row of await regionProgramsByDeployable.all<RegionProgramRow>(tx, keys.deployableUuids)) set.regionPrograms.load(row);

  // Putting or deleting a deployable rewrites its discovered attributes.
  for (const row of await attributesByDeployable.all<AttributeRow>(tx, new Set([...handleParents, ...keys.deployableUuids]))) {
    set.attributes.load(row);
  }
  const unseenAttributes = [...keys.attributeUuids].filter((uuid) => set.attributes.get(uuid) === undefined);
  for (const row of await attributesByUuid.all<AttributeRow>(tx, unseenAttributes)) set.attributes.load(row);
  return set;
}
