import type { AttachHandleRow, AttributeRow, DeployableRow, DeviceRow, HandleClaimRow, HostRow, RegionProgramRow } from './inventory-table-rows';
import { TableRows } from './table-rows';

/**
 * The rows one batch touches, loaded before its events are applied and
 * written back after: every event then reads and writes memory instead of
 * issuing its own statements. The load is complete for every key the
 * batch's events can reach (see batch-keys.ts), so a reachable key missing
 * here has no row in the table either. A set over empty tables (`empty`)
 * loads nothing.
 */
export class InventoryWorkingSet {
  readonly hosts: TableRows<HostRow>;
  readonly devices: TableRows<DeviceRow>;
  readonly deployables: TableRows<DeployableRow>;
  readonly handles: TableRows<AttachHandleRow>;
  readonly claims: TableRows<HandleClaimRow>;
  readonly regionPrograms: TableRows<RegionProgramRow>;
  readonly attributes: TableRows<AttributeRow>;

  constructor(empty = false) {
    this.hosts = new TableRows((row) => row.hostname, undefined, empty);
    this.devices = new TableRows((row) => row.uuid, undefined, empty);
    this.deployables = new TableRows((row) => row.uuid, (row) => row.device_uuid, empty);
    this.handles = new TableRows((row) => row.uuid, (row) => row.deployable_uuid, empty);
    this.claims = new TableRows((row) => row.handle_uuid, undefined, empty);
    this.regionPrograms = new TableRows((row) => row.deployable_uuid, undefined, empty);
    this.attributes = new TableRows((row) => row.uuid, (row) => row.deployable_uuid, empty);
  }
}
