import type { SqlExecutor } from '@ledger/processing';
import { KeyListStatement } from './multi-row';
import { decodeCursor, encodeCursor, pageLimit } from './page-cursor';
import {
  DEVICE_FIELDS,
  type DeviceField,
  deviceColumnOf,
  toAttachHandleView,
  toAttributeView,
  toDeployableBindingView,
  toDeployableView,
  toDeviceFields,
  toDeviceView,
  toHandleClaimView,
  toHostView,
  type Row,
} from './inventory.rows';
import type {
  AttachHandleView,
  AttributeView,
  BindableHandleView,
  DeployableBindingView,
  DeployableView,
  DeviceView,
  HandleClaimView,
  HostView,
  Page,
} from './inventory.views';
import { compareAttributes, DEPLOYABLE_SORT_COLUMNS, DEVICE_SORT_COLUMNS, orderAndLimit, type SortDirection } from './search-order';
import { Conditions } from './sql-conditions';

export interface PageRequest {
  /** 1–1000, default 100. */
  readonly limit?: number;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string;
}

export interface DeviceFilter extends PageRequest {
  readonly hostname?: string;
  readonly type?: string;
  /** PCI vendor id (case-insensitive). */
  readonly vendor?: string;
  readonly status?: 'enabled' | 'maintaining';
}

export interface DeployableFilter extends PageRequest {
  readonly hostname?: string;
  readonly deviceUuid?: string;
  readonly resourceClass?: string;
}

/** An unpaged, sorted search (Cyborg's lists): every match, or the first `limit`. */
export interface SearchRequest<SortKey extends string> {
  /** A positive integer; all matches when absent. */
  readonly limit?: number;
  /** Default `createdAt`; ties are broken by uuid. */
  readonly sortBy?: SortKey;
  readonly sortDirection?: SortDirection;
}

export interface DeviceSearch extends SearchRequest<keyof typeof DEVICE_SORT_COLUMNS> {
  readonly hostname?: string;
  readonly type?: string;
  /** PCI vendor id (case-insensitive). */
  readonly vendor?: string;
}

export interface DeployableSearch extends SearchRequest<keyof typeof DEPLOYABLE_SORT_COLUMNS> {
  readonly name?: string;
  readonly hostname?: string;
}

export interface AttributeFilter {
  /** The deployable's integer id. */
  readonly deployableId?: number;
  readonly key?: string;
  /** Only these deployables' attributes. */
  readonly deployableUuids?: readonly string[];
}

/** Host rows with the live view's last sighting (hosts never seen since liveness was tracked have none). */
const HOSTS_WITH_LIVENESS = 'SELECT h.*, l.last_seen_ms FROM inv_hosts h LEFT JOIN inv_host_liveness l ON l.hostname = h.hostname';

/** Attributes served: not deleted, of a deployable that is reported now. */
const LIVE_ATTRIBUTES = 'SELECT a.* FROM inv_attributes a JOIN inv_deployables d ON d.uuid = a.deployable_uuid';
const attributesOfDeployables = new KeyListStatement(`${LIVE_ATTRIBUTES} WHERE a.deleted = 0 AND a.deployable_uuid IN ($IN)`);

/**
 * Reads of the inventory read model. Lists are keyset-paginated in a stable
 * order (hosts by name; devices and deployables by host, then uuid), so a
 * page never skips or repeats a row that existed throughout the paging.
 */
export class InventoryQueries {
  constructor(private readonly db: SqlExecutor) {}

  async listHosts(request: PageRequest = {}): Promise<Page<HostView>> {
    const limit = pageLimit(request.limit);
    const after = decodeCursor(request.cursor, 1);
    const rows = await this.db.all<Row>(
      `${HOSTS_WITH_LIVENESS} ${after ? 'WHERE h.hostname > $1' : ''} ORDER BY h.hostname LIMIT ${limit + 1}`,
      after ? [after[0]] : [],
    );
    return page(rows, limit, toHostView, (host) => [host.hostname]);
  }

  async getHost(hostname: string): Promise<HostView | undefined> {
    const row = await this.db.get<Row>(`${HOSTS_WITH_LIVENESS} WHERE h.hostname = $1`, [hostname]);
    return row && toHostView(row);
  }

  async listDevices(filter: DeviceFilter = {}): Promise<Page<DeviceView>> {
    return this.listDeviceFields(filter, DEVICE_FIELDS);
  }

  /**
   * `listDevices` reading only the columns of `fields` (and the page keys,
   * uuid and hostname): a caller that shows a few fields of many devices
   * (GraphQL's fleet page) does not pay for building every column of each row.
   */
  async listDeviceFields<K extends DeviceField>(filter: DeviceFilter, fields: readonly K[]): Promise<Page<Pick<DeviceView, K | 'uuid' | 'hostname'>>> {
    const where = new Conditions(['removed = 0']);
    where.equal('hostname', filter.hostname);
    where.equal('type', filter.type);
    where.equal('vendor_id', filter.vendor?.toLowerCase());
    where.equal('status', filter.status);
    const read = [...new Set<K | 'uuid' | 'hostname'>(['uuid', 'hostname', ...fields])];
    const columns = read.length === DEVICE_FIELDS.length ? '*' : read.map(deviceColumnOf).join(', ');
    return this.listByHostAndUuid('inv_devices', where, filter, (row) => toDeviceFields(row, read), columns);
  }

  async getDevice(uuid: string): Promise<DeviceView | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM inv_devices WHERE uuid = $1 AND removed = 0', [uuid.toLowerCase()]);
    return row && toDeviceView(row);
  }

  async listDeployables(filter: DeployableFilter = {}): Promise<Page<DeployableView>> {
    const where = new Conditions([]);
    where.equal('hostname', filter.hostname);
    where.equal('device_uuid', filter.deviceUuid?.toLowerCase());
    where.equal('resource_class', filter.resourceClass);
    return this.listByHostAndUuid('inv_deployables', where, filter, toDeployableView);
  }

  async getDeployable(uuid: string): Promise<DeployableView | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM inv_deployables WHERE uuid = $1', [uuid.toLowerCase()]);
    return row && toDeployableView(row);
  }

  /** Every handle of a deployable (at most 4096), by kind, address, mdev type and slot. */
  async listAttachHandles(deployableUuid: string): Promise<AttachHandleView[]> {
    const rows = await this.db.all<Row>(
      'SELECT * FROM inv_attach_handles WHERE deployable_uuid = $1 ORDER BY kind, address, mdev_type, slot, uuid',
      [deployableUuid.toLowerCase()],
    );
    return rows.map(toAttachHandleView);
  }

  /** Devices still reported, sorted, for Cyborg's unpaged `GET /v2/devices`. */
  async searchDevices(search: DeviceSearch = {}): Promise<DeviceView[]> {
    const where = new Conditions(['removed = 0']);
    where.equal('hostname', search.hostname);
    where.equal('type', search.type);
    where.equal('vendor_id', search.vendor?.toLowerCase());
    const order = orderAndLimit(DEVICE_SORT_COLUMNS, search.sortBy, search.sortDirection, search.limit);
    return (await this.db.all<Row>(`SELECT * FROM inv_devices ${where.sql()} ${order}`, where.params)).map(toDeviceView);
  }

  /** Deployables, sorted, for Cyborg's unpaged `GET /v2/deployables`. */
  async searchDeployables(search: DeployableSearch = {}): Promise<DeployableView[]> {
    const where = new Conditions([]);
    where.equal('name', search.name);
    where.equal('hostname', search.hostname);
    const order = orderAndLimit(DEPLOYABLE_SORT_COLUMNS, search.sortBy, search.sortDirection, search.limit);
    return (await this.db.all<Row>(`SELECT * FROM inv_deployables ${where.sql()} ${order}`, where.params)).map(toDeployableView);
  }

  /** The deployable with this integer id (Cyborg's `deployable_id`); the smallest uuid in the unlikely case two share it. */
  async findDeployableByNumericId(numericId: number): Promise<DeployableView | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM inv_deployables WHERE numeric_id = $1 ORDER BY uuid LIMIT 1', [numericId]);
    return row && toDeployableView(row);
  }

  /** The deployable behind a Placement resource provider, with its device's status and health and its agent's liveness, unless the device is removed. */
  async findDeployableByRpUuid(rpUuid: string): Promise<DeployableBindingView | undefined> {
    const row = await this.db.get<Row>(
      `SELECT p.*, d.status AS device_status, d.health AS device_health, d.health_reason AS device_health_reason,
              d.capacity AS device_capacity, h.agent_lost_at
         FROM inv_deployables p JOIN inv_devices d ON d.uuid = p.device_uuid
         LEFT JOIN inv_hosts h ON h.hostname = p.hostname
        WHERE p.rp_uuid = $1 AND d.removed = 0
        ORDER BY p.uuid LIMIT 1`,
      [rpUuid.toLowerCase()],
    );
    return row && toDeployableBindingView(row);
  }

  /** A deployable's handles by address, then slot, with the request holding each. */
  async listAttachHandlesOfDeployable(deployableUuid: string): Promise<BindableHandleView[]> {
    const rows = await this.db.all<Row>(
      'SELECT * FROM inv_attach_handles WHERE deployable_uuid = $1 ORDER BY address, slot, uuid',
      [deployableUuid.toLowerCase()],
    );
    return rows.map((row) => {
      const { uuid, kind, address, physicalNetwork, mdevType, slot, inUse, claimedBy, partition } = toAttachHandleView(row);
      return { uuid, kind, address, physicalNetwork, mdevType, slot, inUse, claimedBy, partition };
    });
  }

  /** Every claim held, also on handles no longer reported (for the sweeper of leaked claims), by handle uuid. */
  async listClaims(): Promise<HandleClaimView[]> {
    return (await this.db.all<Row>('SELECT * FROM inv_handle_claims ORDER BY handle_uuid')).map(toHandleClaimView);
  }

  /** Attributes of reported deployables, discovered and an operator's, each deployable's in Cyborg's order. */
  async listAttributes(filter: AttributeFilter = {}): Promise<AttributeView[]> {
    let rows: Row[];
    if (filter.deployableUuids !== undefined) {
      rows = await attributesOfDeployables.all<Row>(this.db, new Set(filter.deployableUuids.map((uuid) => uuid.toLowerCase())));
      if (filter.deployableId !== undefined) rows = rows.filter((row) => Number(row.deployable_id) === filter.deployableId);
      if (filter.key !== undefined) rows = rows.filter((row) => row.key === filter.key);
    } else {
      const where = new Conditions(['a.deleted = 0']);
      where.equal('a.deployable_id', filter.deployableId);
      where.equal('a.key', filter.key);
      rows = await this.db.all<Row>(`${LIVE_ATTRIBUTES} ${where.sql()}`, where.params);
    }
    return rows.map(toAttributeView).sort(compareAttributes);
  }

  async getAttribute(uuid: string): Promise<AttributeView | undefined> {
    const row = await this.db.get<Row>(`${LIVE_ATTRIBUTES} WHERE a.uuid = $1 AND a.deleted = 0`, [uuid.toLowerCase()]);
    return row && toAttributeView(row);
  }

  private async listByHostAndUuid<T extends { hostname: string; uuid: string }>(
    table: string,
    where: Conditions,
    request: PageRequest,
    toView: (row: Row) => T,
    columns = '*',
  ): Promise<Page<T>> {
    const limit = pageLimit(request.limit);
    const after = decodeCursor(request.cursor, 2);
    if (after) where.add(`(hostname, uuid) > (${where.param(after[0])}, ${where.param(after[1])})`);
    const rows = await this.db.all<Row>(
      `SELECT ${columns} FROM ${table} ${where.sql()} ORDER BY hostname, uuid LIMIT ${limit + 1}`,
      where.params,
    );
    return page(rows, limit, toView, (item) => [item.hostname, item.uuid]);
  }
}

function page<T>(rows: readonly Row[], limit: number, toView: (row: Row) => T, keyOf: (item: T) => string[]): Page<T> {
  const items = rows.slice(0, limit).map(toView);
  const nextCursor = rows.length > limit ? encodeCursor(keyOf(items[items.length - 1])) : null;
  return { items, nextCursor };
}
