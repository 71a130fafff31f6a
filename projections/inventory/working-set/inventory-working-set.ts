import type { AttachHandleRow, AttributeRow, DeployableRow, DeviceRow, HandleClaimRow, HostRow, RegionProgramRow } from './inventory-table-rows';
import { TableRows } from './table-rows';

/**
 * The rows one batch touches, loaded before its events are applied and
 * written back after: every event then reads and writes memory instead of
 * issuing its own statements. The load is complete for every key the
 * batch's events can reach (see batch-keys.ts), so a reachable key missing
 * here has no row in the table either. A rebuild's first fold, over the
 * tables its reset emptied, loads nothing (inventory.projection.ts).
 */
export class InventoryWorkingSet {
  readonly hosts = new TableRows<HostRow>((row) => row.hostname);
  readonly devices = new TableRows<DeviceRow>((row) => row.uuid);
  readonly deployables = new TableRows<DeployableRow>(
    (row) => row.uuid,
    (row) => row.device_uuid,
  );
  readonly handles = new TableRows<AttachHandleRow>(
    (row) => row.uuid,
    (row) => row.deployable_uuid,
  );
  readonly claims = new TableRows<HandleClaimRow>((row) => row.handle_uuid);
  readonly regionPrograms = new TableRows<RegionProgramRow>((row) => row.deployable_uuid);
  readonly attributes = new TableRows<AttributeRow>(
    (row) => row.uuid,
    (row) => row.deployable_uuid,
  );
}
