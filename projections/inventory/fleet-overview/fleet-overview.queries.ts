import type { SqlExecutor } from '@ledger/processing';
import { agentStatusOf, isoOfMs } from '../live-view/live-view.views';
import { toDeviceFields } from '../inventory.rows';
import { KeyListStatement } from '../multi-row';
import { decodeCursor, encodeCursor, pageLimit } from '../page-cursor';
import type { PageRequest } from '../inventory.queries';
import { deviceClauses, type FleetFilter, HOSTS_AND_LIVENESS, hostConditions, NEEDS_ATTENTION, searchedHostsStatement } from './fleet-filter';
import type { FleetCounts, FleetHostView, FleetOverview } from './fleet-overview.views';

type Row = Record<string, unknown>;

const FLEET_DEVICE_FIELDS = ['uuid', 'type', 'model', 'pciAddress', 'status', 'health', 'healthReason'] as const;

const devicesOfHosts = new KeyListStatement(
  'SELECT uuid, hostname, type, model, pci_address, status, health, health_reason FROM inv_devices WHERE removed = 0 AND hostname IN ($IN) ORDER BY hostname, pci_address, uuid',
);

/**
 * The fleet at a glance, counted and paged in SQL: however many hosts there
 * are, an overview is three statements (four with a search) and a page of rows — the counts by
 * agent and host status, by device type, status and health, and one page
 * of the matching hosts (by name) with their devices.
 */
export class FleetOverviewQueries {
  constructor(private readonly db: SqlExecutor) {}

  async overview(filter: FleetFilter, request: PageRequest = {}): Promise<FleetOverview> {
    const searched = filter.search?.trim() ? await this.searchedHosts(filter) : [];
    const [counts, hosts] = await Promise.all([this.counts(filter, searched), this.hosts(filter, searched, request)]);
    return { counts, ...hosts };
  }

  private async searchedHosts(filter: FleetFilter): Promise<string[]> {
    const { sql, params } = searchedHostsStatement(filter);
    return [...new Set((await this.db.all<{ hostname: string }>(sql, params)).map((row) => row.hostname))];
  }

  private async counts(filter: FleetFilter, searched: readonly string[]): Promise<FleetCounts> {
    const hostWhere = hostConditions(filter, searched);
    const hostRows = await this.db.all<Row>(
      `SELECT h.status, COUNT(*) AS hosts, COUNT(h.agent_lost_at) AS lost,
              COUNT(CASE WHEN h.agent_lost_at IS NULL THEN l.last_seen_ms END) AS up,
              COUNT(CASE WHEN ${NEEDS_ATTENTION} THEN 1 END) AS attention
         FROM ${HOSTS_AND_LIVENESS} ${hostWhere.sql()} GROUP BY h.status`,
      hostWhere.params,
    );
    const deviceWhere = hostConditions(filter, searched);
    for (const clause of deviceClauses(filter, deviceWhere)) deviceWhere.add(clause);
    const deviceRows = await this.db.all<Row>(
      `SELECT d.type, d.status, d.health, COUNT(*) AS devices
         FROM ${HOSTS_AND_LIVENESS} JOIN inv_devices d ON d.hostname = h.hostname ${deviceWhere.sql()} GROUP BY d.type, d.status, d.health`,
      deviceWhere.params,
    );
    return foldCounts(hostRows, deviceRows);
  }

  private async hosts(filter: FleetFilter, searched: readonly string[], request: PageRequest): Promise<{ hosts: FleetHostView[]; nextCursor: string | null }> {
    const limit = pageLimit(request.limit);
    const after = decodeCursor(request.cursor, 1);
    const where = hostConditions(filter, searched);
    if (after) where.add(`h.hostname > ${where.param(after[0])}`);
    const rows = await this.db.all<Row>(
      `SELECT h.hostname, h.status, h.device_count, h.agent_lost_at, l.last_seen_ms FROM ${HOSTS_AND_LIVENESS} ${where.sql()} ORDER BY h.hostname LIMIT ${limit + 1}`,
      where.params,
    );
    const page = rows.slice(0, limit);
    const devices = await devicesOfHosts.all<Row>(this.db, page.map((row) => row.hostname as string));
    const byHost = new Map<string, Row[]>();
    for (const device of devices) byHost.set(device.hostname as string, [...(byHost.get(device.hostname as string) ?? []), device]);
    const hosts = page.map((row) => toFleetHost(row, byHost.get(row.hostname as string) ?? []));
    return { hosts, nextCursor: rows.length > limit ? encodeCursor([hosts[hosts.length - 1].hostname]) : null };
  }
}

function foldCounts(hostRows: readonly Row[], deviceRows: readonly Row[]): FleetCounts {
  const counts: FleetCounts = {
    hosts: 0,
    attention: 0,
    byAgent: { up: 0, lost: 0, unknown: 0 },
    byHostStatus: {},
    devices: 0,
    byType: {},
    byDeviceStatus: {},
    byHealth: {},
  };
  const add = (into: Record<string, number>, key: unknown, n: number) => (into[String(key)] = (into[String(key)] ?? 0) + n);
  for (const row of hostRows) {
    const [hosts, lost, up] = [Number(row.hosts), Number(row.lost), Number(row.up)];
    counts.hosts += hosts;
    counts.attention += Number(row.attention);
    counts.byAgent.up += up;
    counts.byAgent.lost += lost;
    counts.byAgent.unknown += hosts - lost - up;
    add(counts.byHostStatus, row.status, hosts);
  }
  for (const row of deviceRows) {
    const n = Number(row.devices);
    counts.devices += n;
    add(counts.byType, row.type, n);
    add(counts.byDeviceStatus, row.status, n);
    add(counts.byHealth, row.health, n);
  }
  return counts;
}

const toFleetHost = (row: Row, devices: readonly Row[]): FleetHostView => ({
  hostname: row.hostname as string,
  status: row.status as string,
  agentStatus: agentStatusOf(row.agent_lost_at, row.last_seen_ms),
  lastSeenAt: isoOfMs(row.last_seen_ms),
  deviceCount: Number(row.device_count),
  devices: devices.map((device) => toDeviceFields(device, FLEET_DEVICE_FIELDS)),
});
