import type { SqlExecutor } from '@ledger/processing';
import { decodeCursor, encodeCursor, pageLimit } from './page-cursor';
import { toAttachHandleView, toDeployableView, toDeviceView, toHostView, type Row } from './inventory.rows';
import type { AttachHandleView, DeployableView, DeviceView, HostView, Page } from './inventory.views';

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
      `SELECT * FROM inv_hosts ${after ? 'WHERE hostname > $2' : ''} ORDER BY hostname LIMIT $1`,
      after ? [limit + 1, after[0]] : [limit + 1],
    );
    return page(rows, limit, toHostView, (host) => [host.hostname]);
  }

  async getHost(hostname: string): Promise<HostView | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM inv_hosts WHERE hostname = $1', [hostname]);
    return row && toHostView(row);
  }

  async listDevices(filter: DeviceFilter = {}): Promise<Page<DeviceView>> {
    const where = new Conditions(['removed = 0']);
    where.equal('hostname', filter.hostname);
    where.equal('type', filter.type);
    where.equal('vendor_id', filter.vendor?.toLowerCase());
    where.equal('status', filter.status);
    return this.listByHostAndUuid('inv_devices', where, filter, toDeviceView);
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

  private async listByHostAndUuid<T extends { hostname: string; uuid: string }>(
    table: string,
    where: Conditions,
    request: PageRequest,
    toView: (row: Row) => T,
  ): Promise<Page<T>> {
    const limit = pageLimit(request.limit);
    const after = decodeCursor(request.cursor, 2);
    if (after) where.add(`(hostname, uuid) > (${where.param(after[0])}, ${where.param(after[1])})`);
    const rows = await this.db.all<Row>(
      `SELECT * FROM ${table} ${where.sql()} ORDER BY hostname, uuid LIMIT ${where.param(limit + 1)}`,
      where.params,
    );
    return page(rows, limit, toView, (item) => [item.hostname, item.uuid]);
  }
}

/** A WHERE clause built from the filters a caller set, with `$n` parameters. */
class Conditions {
  readonly params: unknown[] = [];

  constructor(private readonly clauses: string[]) {}

  equal(column: string, value: string | undefined): void {
    if (value !== undefined) this.add(`${column} = ${this.param(value)}`);
  }

  add(clause: string): void {
    this.clauses.push(clause);
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  sql(): string {
    return this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`;
  }
}

function page<T>(rows: readonly Row[], limit: number, toView: (row: Row) => T, keyOf: (item: T) => string[]): Page<T> {
  const items = rows.slice(0, limit).map(toView);
  const nextCursor = rows.length > limit ? encodeCursor(keyOf(items[items.length - 1])) : null;
  return { items, nextCursor };
}
