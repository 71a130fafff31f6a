import type { SqlExecutor } from '@ledger/processing';
import { KeyListStatement } from '../multi-row';
import type { BatchKeys } from './batch-keys';
import {
  ATTACH_HANDLE_COLUMNS,
  type AttachHandleRow,
  DEPLOYABLE_COLUMNS,
  type DeployableRow,
  DEVICE_COLUMNS,
  type DeviceRow,
  HOST_COLUMNS,
  type HostRow,
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
  return set;
}
